/**
 * `npm run bench:cache-reload -- [--keys 2000,10000] [--timeout-s 900]`: how long the policy cache
 * takes to come back after Redis lost its data. For each N: a private redis-server, a fresh
 * `tollgate local` on it (real control plane, operator and gateway in one process), a fake
 * provider; the bulk key world and N ApiKeys applied (`kubectl apply --server-side`, four kubectl
 * processes) until every key is Ready; then `FLUSHALL`, and, polled every 10 ms from outside: when
 * the operator began its full program (`{policies}:reload` appears), when it wrote the marker
 * again (`{policies}:generation`), how many key documents the store holds then, and when the probe
 * key is answered 200 again (and what it was answered meanwhile). Writes
 * `bench/results/<date>-cache-reload.json`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { startFakeProvider } from '../../local/simulator/start-fake-provider.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import {
  BULK_NAMESPACE,
  PROBE_KEY,
  renderBulkKeys,
  renderBulkWorld,
} from './render-bulk-key-manifests.js';
import { startBulkLocal } from './start-bulk-local.js';
import { KeyReadiness } from './watch-key-readiness.js';
import { kubectl, probe } from './call-bulk-local.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';

const APPLY_PROCESSES = 4;
const PREFIX = 'tg:';

function within<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      setTimeout(() => {
        reject(new Error(`${what} not done in ${String(timeoutMs)} ms`));
      }, timeoutMs).unref();
    }),
  ]);
}

async function runOnce(count: number, timeoutMs: number) {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-cache-reload-'));
  const redisServer = await startRedisServer();
  const provider = await startFakeProvider({ credential: null });
  const redis = new Redis(redisServer.url);
  const local = await startBulkLocal({
    dataDirectory: join(folder, 'data'),
    redisUrl: redisServer.url,
  });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(local.kubeconfigPath);
  const readiness = new KeyReadiness(kubeConfig, BULK_NAMESPACE, () => true);
  try {
    await kubectl(local.kubeconfigPath, ['apply', '-f', '-'], {
      input: renderBulkWorld({ providerUrl: provider.url }),
    });
    await readiness.start();
    const documents = renderBulkKeys(count).split('\n---\n');
    const importStarted = performance.now();
    await Promise.all(
      Array.from({ length: APPLY_PROCESSES }, (_, index) =>
        kubectl(local.kubeconfigPath, ['apply', '--server-side', '-f', '-'], {
          input: `${documents.filter((_, at) => at % APPLY_PROCESSES === index).join('\n---\n')}\n`,
          timeoutMs,
        }),
      ),
    );
    await within(
      'every key Ready',
      readiness.until(() => readiness.readyCount >= count + 1),
      timeoutMs,
    );
    const importMs = performance.now() - importStarted;
    const encoded = await kubectl(local.kubeconfigPath, [
      'get',
      'secret',
      `${PROBE_KEY}-key`,
      '-n',
      BULK_NAMESPACE,
      '-o',
      'jsonpath={.data.apiKey}',
    ]);
    const probeKey = Buffer.from(encoded, 'base64').toString('utf8');
    if ((await probe(local.gatewayUrl, probeKey)) !== 'ok') throw new Error('probe not served');
    const marker = `${PREFIX}{policies}:generation`;
    const reload = `${PREFIX}{policies}:reload`;
    const digests = `${PREFIX}{keys}:digests`;
    if ((await redis.get(marker)) === null) throw new Error('no marker before the flush');

    await redis.flushall();
    const flushed = performance.now();
    let beganMs: number | null = null;
    let markerMs: number | null = null;
    let policiesAtMarker = 0;
    const answers = new Map<string, number>();
    let servedMs: number | null = null;
    const deadline = flushed + timeoutMs;
    const watchStore = (async () => {
      while (markerMs === null && performance.now() < deadline) {
        const [began, written] = await Promise.all([redis.exists(reload), redis.get(marker)]);
        if (began === 1 && beganMs === null) beganMs = performance.now() - flushed;
        if (written !== null) {
          markerMs = performance.now() - flushed;
          policiesAtMarker = await redis.hlen(digests);
        } else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    while (servedMs === null && performance.now() < deadline) {
      const answer = await probe(local.gatewayUrl, probeKey);
      if (answer === 'ok') servedMs = performance.now() - flushed;
      else {
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await watchStore;
    const round = (value: number | null): number | null =>
      value === null ? null : Math.round(value);
    return {
      keys: count,
      importMs: Math.round(importMs),
      reloadBeganMs: round(beganMs),
      markerWrittenMs: round(markerMs),
      keyDocumentsAtMarker: policiesAtMarker,
      probeServedAgainMs: round(servedMs),
      probeAnswersMeanwhile: Object.fromEntries(answers),
      loadAverageAfter: loadavg().map((value) => Math.round(value * 100) / 100),
    };
  } catch (error) {
    process.stderr.write(`${local.tail().join('\n')}\n`);
    throw error;
  } finally {
    readiness.stop();
    await local.stop();
    redis.disconnect();
    await provider.close();
    await redisServer.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      keys: { type: 'string', default: '2000,10000' },
      'timeout-s': { type: 'string', default: '900' },
      out: { type: 'string' },
    },
  });
  const described = describeBenchFacts('bench/macro/cache-reload.ts');
  const facts = {
    date: new Date().toISOString(),
    command: described.command.replace(
      'npx tsx bench/macro/cache-reload.ts',
      'npm run bench:cache-reload --',
    ),
    commit: described.commit,
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${String(availableParallelism())} CPUs`,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    node: process.version,
  };
  const runs = [];
  for (const count of values.keys.split(',').map(Number)) {
    process.stdout.write(`cache-reload: ${new Date().toISOString()} ${String(count)} keys\n`);
    const result = await runOnce(count, Number(values['timeout-s']) * 1000);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    runs.push(result);
  }
  const file = values.out ?? `bench/results/${facts.date.slice(0, 10)}-cache-reload.json`;
  const path = fileURLToPath(new URL(`../../${file}`, import.meta.url));
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ facts, runs }, null, 2)}\n`);
  process.stdout.write(`cache-reload: wrote ${file}\n`);
  for (const written of updateBenchSummaries()) process.stdout.write(`bench: wrote ${written}\n`);
}

await main();
process.exit(0);
