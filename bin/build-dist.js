#!/usr/bin/env node
// @ts-check
/**
 * `npm run build`: a clean, type-checked build of dist/ with its stamp.
 * `--no-check` emits without the type check (`tsc --noCheck`, the same JavaScript).
 * `--prepare` (the `prepare` script, run by `npm ci`): a build without the type check, skipped with
 * one line when TypeScript or the sources are absent (`npm ci --omit=dev`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDist, findTypeScript } from './ensure-fresh-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const prepare = args.includes('--prepare');
if (prepare && !existsSync(new URL('../tsconfig.build.json', import.meta.url))) {
  process.stderr.write('tollgate build: no sources here; nothing to build\n');
} else if (prepare && findTypeScript(root) === undefined) {
  process.stderr.write('tollgate build: TypeScript is not installed; skipping the build\n');
} else {
  try {
    buildDist(root, { typeCheck: !prepare && !args.includes('--no-check') });
  } catch (error) {
    process.stderr.write(`tollgate build: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
