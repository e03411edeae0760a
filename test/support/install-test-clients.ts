/**
 * Test support: the agent CLIs the client tests run (Claude Code, Codex CLI, Gemini CLI, OpenCode).
 * They are not dependencies of Tollgate, so the root `npm ci` leaves them out: they are pinned in
 * their own package, `test/clients/`, and installed into `test/clients/node_modules` by
 * `npm run clients:install` (`.ci/run` runs it before `npm test`). A test that needs them calls
 * `ensureTestClients()` first: when a pinned CLI is missing or at another version it runs that same
 * script, within `CLIENTS_INSTALL_TIMEOUT_MS`, and throws with npm's output when the install fails
 * or leaves a CLI missing: the test fails, it is never skipped.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clientsFolder = join(root, 'test', 'clients');

/** Where the CLIs' commands are (`claude`, `codex`, `gemini`, `opencode`). */
export const clientBinFolder = join(clientsFolder, 'node_modules', '.bin');

/** A first install downloads about 1 GB; a warm npm cache makes it a minute. */
export const CLIENTS_INSTALL_TIMEOUT_MS = 15 * 60_000;

function readVersion(packageJson: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** `name@version` of each pinned CLI that is not installed at its pinned version. */
export function missingTestClients(): string[] {
  const manifest = JSON.parse(readFileSync(join(clientsFolder, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.entries(manifest.dependencies)
    .filter(([name, version]) => {
      const installed = readVersion(join(clientsFolder, 'node_modules', name, 'package.json'));
      return installed !== version;
    })
    .map(([name, version]) => `${name}@${version}`);
}

function runInstall(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['run', 'clients:install'],
      { cwd: root, timeout: CLIENTS_INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve();
          return;
        }
        const reason = error.killed
          ? `did not finish within ${CLIENTS_INSTALL_TIMEOUT_MS / 60_000} minutes`
          : `failed (${error.code ?? error.signal ?? 'no exit code'})`;
        reject(new Error(`npm run clients:install ${reason}:\n${stdout}\n${stderr}`));
      },
    );
  });
}

/** Installs the pinned CLIs when any is missing or stale; throws when they are still not there. */
export async function ensureTestClients(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const missing = missingTestClients();
  if (missing.length === 0) return;
  log(`installing the client CLIs (npm run clients:install): ${missing.join(', ')}`);
  await runInstall();
  const still = missingTestClients();
  if (still.length > 0) {
    throw new Error(`npm run clients:install left these CLIs missing: ${still.join(', ')}`);
  }
}
