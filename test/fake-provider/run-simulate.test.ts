/** `tollgate simulate` as a real process: it prints its URL, serves, and stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const tollgate = fileURLToPath(new URL('../../bin/tollgate.js', import.meta.url));

describe('tollgate simulate', () => {
  it('serves the fake provider until SIGTERM', async () => {
    const child = spawn(process.execPath, [tollgate, 'simulate', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
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
      const response = await request(`${url}/v1/models`, {
        headers: { authorization: 'Bearer fake-upstream-key' },
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toMatchObject({ object: 'list' });
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
    } finally {
      clearTimeout(killer);
    }
  });
});
