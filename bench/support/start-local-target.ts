/**
 * Target F of the side-by-side bench, local mode as `npm start` runs it: `node bin/tollgate.js
 * local` from the compiled build (package.json "start"), no `NODE_OPTIONS`, the memory store and
 * the embedded ledger (PGlite) in a fresh data folder, its log level the default (`info`: one line
 * per call), its log into a file (JSON lines: stdout is not a terminal). `--no-demo`: instead of the demo world, the
 * bench's resources (`render-bench-world.ts`, the mock upstream and a key with every admission
 * feature) are applied with `kubectl` through its own control plane, and the measure starts once
 * its operator has programmed the key. The whole process (control plane, operator, recorder,
 * ledger, gateway) is the one pid measured, pinned to the server's CPUs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, probe } from '../macro/call-bulk-local.js';
import { BENCH_WORLD_KEY, renderBenchWorld } from './render-bench-world.js';
import { pollUntil } from './poll-until.js';
import { spawnTollgateCommand } from './spawn-tollgate-command.js';
import {
  oneKeyCredentials,
  waitUntilDrained,
  type StartedSystem,
} from './start-deployed-target.js';

/** A value of the start banner (`  gateway:   http://...`), or undefined. */
export function bannerValue(line: string, label: string): string | undefined {
  return new RegExp(`^\\s+${label}:\\s+(\\S+)`).exec(line)?.[1];
}

export async function startLocalTarget(options: {
  upstreamUrl: string;
  cpus: string | null;
}): Promise<StartedSystem> {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-bench-local-'));
  const keyValue = `sk-tg-bench-${randomBytes(16).toString('hex')}`;
  const local = spawnTollgateCommand({
    args: ['local', '--data', join(folder, 'data'), '--port', '0', '--no-demo'],
    env: {},
    cpus: options.cpus,
    logFile: join(folder, 'local.log'),
  });
  const stop = async (): Promise<void> => {
    await local.stop();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const banner: Record<string, string> = {};
    await local.waitForLog((lines) => {
      for (const line of lines) {
        for (const label of ['gateway', 'gateway metrics', 'kubeconfig']) {
          const value = bannerValue(line, label);
          if (value !== undefined) banner[label] = value;
        }
      }
      return banner.kubeconfig === undefined ? undefined : true;
    }, 180_000);
    const url = banner.gateway;
    const metrics = banner['gateway metrics'];
    const kubeconfig = banner.kubeconfig;
    if (url === undefined || metrics === undefined || kubeconfig === undefined) {
      throw new Error(`tollgate local printed no banner: ${local.tail().join('\n')}`);
    }
    await kubectl(kubeconfig, ['apply', '-f', '-'], {
      input: renderBenchWorld({ upstreamUrl: options.upstreamUrl, keyValue }),
    });
    await pollUntil(
      `the operator to program ${BENCH_WORLD_KEY}`,
      async () => {
        if (local.exited()) throw new Error(local.tail().join('\n'));
        const answer = await probe(url, keyValue);
        if (answer !== 'ok') throw new Error(answer);
        return true;
      },
      60_000,
      250,
    );
    const metricsUrl = metrics.endsWith('/metrics') ? metrics : `${metrics}/metrics`;
    return {
      url,
      credentials: oneKeyCredentials(keyValue),
      metricsUrl,
      pids: { local: local.pid },
      drained: () => waitUntilDrained(metricsUrl),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
