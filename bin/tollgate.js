#!/usr/bin/env node
// The `tollgate` command: the compiled CLI when built (container image), the TypeScript source otherwise.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/bin/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('./main.ts', import.meta.url);
}
