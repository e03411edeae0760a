/**
 * The pepper and the credential key: read from files (mounted Secrets in cluster mode). In local
 * mode they live in the data folder and are created (32 random bytes, mode 0600) when absent. They
 * are read the same way the gateway reads them.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readKeyFile, readPepperFile } from '../store/read-secret-files.js';

/** Creates the file with 32 random bytes unless it exists (exclusive create, so never overwritten). */
export function createKeyFileIfAbsent(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let descriptor: number;
  try {
    descriptor = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    writeSync(descriptor, randomBytes(32));
  } finally {
    closeSync(descriptor);
  }
}

export interface SecretFiles {
  pepperFile?: string | undefined;
  credentialKeyFile?: string | undefined;
  /** Local mode: defaults `<dataDir>/pepper` and `<dataDir>/credential-key`, created if absent. */
  dataDir?: string | undefined;
}

export function loadSecretFiles(files: SecretFiles): { pepper: Buffer; credentialKey: Buffer } {
  const pick = (path: string | undefined, name: string): string => {
    if (path !== undefined) return path;
    if (files.dataDir === undefined) {
      throw new Error(`no ${name} file: set TOLLGATE_${name.toUpperCase().replace('-', '_')}_FILE`);
    }
    const local = join(files.dataDir, name);
    createKeyFileIfAbsent(local);
    return local;
  };
  return {
    pepper: readPepperFile(pick(files.pepperFile, 'pepper')),
    credentialKey: readKeyFile(pick(files.credentialKeyFile, 'credential-key')),
  };
}
