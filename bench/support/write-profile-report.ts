/**
 * A profiling script's report, written as `bench/results/profiles/<name>.json` (the folder is
 * created when missing).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROFILES_FOLDER = fileURLToPath(new URL('../results/profiles/', import.meta.url));

/** Writes the report; returns the file's path. */
export function writeProfileReport(name: string, report: unknown): string {
  mkdirSync(PROFILES_FOLDER, { recursive: true });
  const path = join(PROFILES_FOLDER, `${name}.json`);
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
