#!/usr/bin/env node
// @ts-check
/**
 * Builds the console web app into console/web/dist with Vite (part of `npm ci` via `prepare`, and of
 * `npm run build`). Skipped with one line when Vite is not installed (`npm ci --omit=dev`): the
 * console then serves its placeholder page.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
if (!existsSync(new URL('../../node_modules/vite/package.json', import.meta.url))) {
  process.stderr.write('tollgate build: Vite is not installed; skipping the console web app\n');
} else {
  const { build } = await import('vite');
  await build({
    root,
    configFile: fileURLToPath(new URL('vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
  process.stderr.write('tollgate build: console web app built in console/web/dist\n');
}
