/**
 * What `tollgate local` prints, as a newcomer's terminal shows it: the start-up log lines (JSON
 * when stdout is not a terminal, readable lines with `TOLLGATE_LOG_FORMAT=pretty`), then the
 * banner, whose last lines are the console's address and sign-in, and nothing after it while the
 * process idles and the console is used (its per-request lines are at `debug`). The first start
 * prints the `admin` password once, with the file that keeps it; a later start names the file
 * and not the password.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const data = mkdtempSync(join(tmpdir(), 'tollgate-banner-'));
afterAll(() => {
  rmSync(data, { recursive: true, force: true });
});
const passwordFile = join(data, 'console-admin-password');
const INFO = { TOLLGATE_LOG_LEVEL: 'info' };

/** The output split at the banner's first line: the log lines before it, and the banner. */
function split(output: string): { logs: string[]; banner: string } {
  const start = output.indexOf('tollgate local is running\n');
  expect(start).toBeGreaterThan(0);
  return {
    logs: output
      .slice(0, start)
      .split('\n')
      .filter((text) => text !== ''),
    banner: output.slice(start),
  };
}

/** Uses the console as a browser would (the page, the session, a sign-in refused). */
async function useConsole(local: LocalProcess): Promise<void> {
  const consoleUrl = /^\s+console:\s+(\S+)/m.exec(local.output())?.[1] ?? '';
  expect(consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  for (const path of ['/', '/api/v1/session', '/api/v1/no/such/route']) {
    const response = await fetch(`${consoleUrl}${path}`);
    await response.body?.cancel();
  }
}

/** Waits until the output has not changed for `quietMs`, or fails after `limitMs`. */
async function idle(local: LocalProcess, quietMs = 2_000, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  let seen = local.output();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() > until) throw new Error(`output never settled:\n${local.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (local.output() !== seen) {
      seen = local.output();
      since = Date.now();
    }
  }
}

/**
 * Starts local mode, uses the console, waits until the output settles and checks that nothing
 * came after the banner; then gives the output at readiness to `check`, split at the banner.
 */
async function startAndWatch(
  environment: Readonly<Record<string, string>>,
  check: (printed: { ready: string; logs: string[]; banner: string }) => void,
): Promise<void> {
  const local = await startLocalProcess(data, [], environment);
  try {
    const ready = local.output();
    await useConsole(local);
    await idle(local);
    // Nothing after the banner: not while idle, not for the console's requests.
    expect(local.output()).toBe(ready);
    const { logs, banner } = split(ready);
    expect(logs.length).toBeGreaterThan(2);
    check({ ready, logs, banner });
  } finally {
    expect(await local.stop()).toBe(0);
  }
}

describe('tollgate local, printed', () => {
  it('first start: JSON log lines off a terminal, then the banner, ending with the sign-in and the password', async () => {
    await startAndWatch(INFO, ({ ready, logs, banner }) => {
      for (const line of logs) expect(() => JSON.parse(line) as unknown).not.toThrow();
      const password = readFileSync(passwordFile, 'utf8').trim();
      expect(password.length).toBeGreaterThan(10);
      const lines = banner.trimEnd().split('\n');
      expect(lines.at(-2)).toMatch(/^\s+console:\s+http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.at(-1)).toBe(
        `  console sign-in:    admin / ${password} (shown once; also in ${passwordFile})`,
      );
      // The password is in the banner's sign-in line and nowhere else.
      expect(ready.split(password)).toHaveLength(2);
    });
  }, 120_000);

  it('later start: readable log lines when asked, and the banner names the password file, not the password', async () => {
    await startAndWatch({ ...INFO, TOLLGATE_LOG_FORMAT: 'pretty' }, ({ ready, logs, banner }) => {
      for (const line of logs) {
        expect(line).toMatch(
          /^\d\d:\d\d:\d\d\.\d{3} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S+ +\S/,
        );
      }
      expect(logs.join('\n')).toMatch(
        / INFO {2}console {2}Server listening at http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(banner.trimEnd().split('\n').at(-1)).toBe(
        `  console sign-in:    admin, password in ${passwordFile}`,
      );
      expect(ready).not.toContain(readFileSync(passwordFile, 'utf8').trim());
    });
  }, 120_000);
});
