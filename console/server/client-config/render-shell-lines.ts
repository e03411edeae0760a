/** Environment variables as shell lines, quoted so any value survives a paste. Pure. */
import type { EnvironmentVariable } from './client-config-types.js';

/** POSIX single quotes: nothing inside is special; a `'` is closed, escaped and reopened. */
export function quotePosix(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** PowerShell single quotes: a `'` is doubled. */
export function quotePowerShell(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function renderShellLines(env: readonly EnvironmentVariable[]): {
  posix: string;
  powershell: string;
} {
  return {
    posix: env.map(({ name, value }) => `export ${name}=${quotePosix(value)}\n`).join(''),
    powershell: env.map(({ name, value }) => `$env:${name} = ${quotePowerShell(value)}\n`).join(''),
  };
}

/**
 * `.env` lines, every value double-quoted with JSON escapes: the key's value and its placeholder
 * are written alike, and a value that could end at a `#` or a space is kept whole.
 */
export function renderDotenv(env: readonly EnvironmentVariable[]): string {
  return env.map(({ name, value }) => `${name}=${JSON.stringify(value)}\n`).join('');
}
