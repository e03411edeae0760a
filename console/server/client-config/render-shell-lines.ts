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

/** `.env` lines; values that need it are double-quoted with JSON escapes. */
export function renderDotenv(env: readonly EnvironmentVariable[]): string {
  return env
    .map(({ name, value }) => {
      const plain = /^[A-Za-z0-9_./:@+,=-]*$/.test(value);
      return `${name}=${plain ? value : JSON.stringify(value)}\n`;
    })
    .join('');
}
