/** `tollgate simulate` as a real process: it prints its URL, serves, and stops on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const tollgate = fileURLToPath(new URL('../../bin/tollgate.js', import.meta.url));

async function startSimulate(
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [tollgate, 'simulate', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (text: string) => {
      output += text;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => {
      reject(new Error(`exited early: ${output}`));
    });
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

describe('tollgate simulate', () => {
  it('serves the fake provider with any upstream credential until SIGTERM', async () => {
    const { url, child } = await startSimulate([]);
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      const response = await request(`${url}/v1/models`, {
        headers: { authorization: 'Bearer whatever-the-upstream-secret-holds' },
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toMatchObject({ object: 'list' });
      expect(await stop(child)).toBe(0);
    } finally {
      clearTimeout(killer);
    }
  });

  it('requires the credential named by --credential', async () => {
    const { url, child } = await startSimulate(['--credential', 'only-this-key']);
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      const refused = await request(`${url}/v1/models`, {
        headers: { authorization: 'Bearer another-key' },
      });
      expect(refused.statusCode).toBe(401);
      await refused.body.dump();
      const accepted = await request(`${url}/v1/models`, {
        headers: { authorization: 'Bearer only-this-key' },
      });
      expect(accepted.statusCode).toBe(200);
      await accepted.body.dump();
      expect(await stop(child)).toBe(0);
    } finally {
      clearTimeout(killer);
    }
  });

  it('exchanges any refresh token for an access token, unless --credential names it', async () => {
    const exchange = async (url: string, refreshToken: string): Promise<number> => {
      const response = await request(`${url}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: 'c',
          client_secret: 's',
        }).toString(),
      });
      const body = (await response.body.json()) as { access_token?: string };
      return response.statusCode === 200 && typeof body.access_token === 'string'
        ? 200
        : response.statusCode;
    };
    const open = await startSimulate([]);
    const strict = await startSimulate(['--credential', 'only-this-token']);
    const killer = setTimeout(() => {
      open.child.kill('SIGKILL');
      strict.child.kill('SIGKILL');
    }, 20_000);
    try {
      expect(await exchange(open.url, 'refresh-token-placeholder')).toBe(200);
      expect(await exchange(strict.url, 'refresh-token-placeholder')).toBe(400);
      expect(await exchange(strict.url, 'only-this-token')).toBe(200);
      expect(await stop(open.child)).toBe(0);
      expect(await stop(strict.child)).toBe(0);
    } finally {
      clearTimeout(killer);
    }
  });
});
