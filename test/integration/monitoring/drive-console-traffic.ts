/**
 * Test support: console traffic for the monitoring test, over HTTP to `tollgate local`'s console.
 * The local admin signs in, then in rounds with a scrape between them (`betweenRounds`): accounts and
 * keys read, a key that does not exist (the Kubernetes API answers 404), and failed sign-ins of an
 * unknown user, ten a round: the first five are wrong passwords, the rest refused by the rate
 * limit. Thirty failures in all: more than TollgateConsoleSignInFailures allows in 10 minutes.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface ConsoleTraffic {
  signIn: number;
  reads: number[];
  missingKey: number[];
  failedSignIns: number[];
}

/** The console's URL and the admin password, from `tollgate local`'s banner. */
export function consoleFromBanner(output: string): { url: string; password: string } {
  const url = /^\s+console:\s+(\S+)/m.exec(output)?.[1];
  const password = /^\s+console sign-in:\s+admin \/ (\S+)/m.exec(output)?.[1];
  if (url === undefined || password === undefined) {
    throw new Error(`banner has no console or console sign-in:\n${output}`);
  }
  return { url, password };
}

async function signIn(
  url: string,
  credentials: { username: string; password: string },
): Promise<{ status: number; cookie: string }> {
  const response = await fetch(`${url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  await response.arrayBuffer();
  const cookie = /tollgate_console_session=[^;]+/.exec(response.headers.getSetCookie().join('\n'));
  return { status: response.status, cookie: cookie?.[0] ?? '' };
}

async function get(url: string, cookie: string): Promise<number> {
  const response = await fetch(url, { headers: { cookie } });
  await response.arrayBuffer();
  return response.status;
}

export async function driveConsoleTraffic(
  target: { url: string; password: string },
  betweenRounds: () => Promise<unknown> = () => sleep(1_500),
): Promise<ConsoleTraffic> {
  const admin = await signIn(target.url, { username: 'admin', password: target.password });
  const traffic: ConsoleTraffic = {
    signIn: admin.status,
    reads: [],
    missingKey: [],
    failedSignIns: [],
  };
  for (let round = 0; round < 3; round += 1) {
    if (round > 0) await betweenRounds();
    for (const path of ['/api/v1/me', '/api/v1/accounts', '/api/v1/accounts/demo/keys']) {
      traffic.reads.push(await get(`${target.url}${path}`, admin.cookie));
    }
    traffic.missingKey.push(
      await get(`${target.url}/api/v1/accounts/demo/keys/monitoring-missing`, admin.cookie),
    );
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const failed = await signIn(target.url, {
        username: 'monitoring-intruder',
        password: 'not-the-password',
      });
      traffic.failedSignIns.push(failed.status);
    }
  }
  return traffic;
}
