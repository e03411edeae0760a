/**
 * Writes crds/*.yaml and the Helm chart's copies in charts/tollgate/crds/ from the schema source
 * (`npm run generate:crds`).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderAllCrds } from './render-crds.js';
import { toCrdYaml } from './crd-yaml.js';

const folder = fileURLToPath(new URL('.', import.meta.url));
const chartFolder = fileURLToPath(new URL('../charts/tollgate/crds/', import.meta.url));
for (const { fileName, crd } of renderAllCrds()) {
  writeFileSync(`${folder}${fileName}`, toCrdYaml(crd));
  writeFileSync(`${chartFolder}${fileName}`, toCrdYaml(crd));
  console.log(`wrote crds/${fileName} and charts/tollgate/crds/${fileName}`);
}
