/** Writes crds/*.yaml from the schema source (`npm run generate:crds`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderAllCrds } from './render-crds.js';
import { toCrdYaml } from './crd-yaml.js';

const folder = fileURLToPath(new URL('.', import.meta.url));
for (const { fileName, crd } of renderAllCrds()) {
  writeFileSync(`${folder}${fileName}`, toCrdYaml(crd));
  console.log(`wrote crds/${fileName}`);
}
