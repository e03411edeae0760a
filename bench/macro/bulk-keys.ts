/**
 * `npm run bench:bulk-keys -- [--keys 2000,10000] [--apply client|server] [--apply-processes 1]
 * [--profile] [--timeout-s 900]`: bulk key
 * programming. For each N: a private redis-server, a fresh `tollgate local` on it (real control
 * plane, operator and gateway in one process), a fake provider; one probe key made Ready first; then
 * one `kubectl apply -f` of N ApiKeys (`--apply server`: `kubectl apply --server-side`; with
 * `--apply-processes P`, P kubectl processes at once, each with every P-th key: kubectl sends its
 * requests one after another, so one process measures its round trip). Measures the time until every key is Ready (one watch),
 * keys/s, the process's CPU and memory, Redis CPU and commands, and, while the import runs, how long
 * a suspension of the probe key takes to be refused by the gateway. Writes
 * `bench/results/<date>-bulk-keys.json`; with `--profile`, a CPU profile of the local process per N.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { startFakeProvider } from '../../local/simulator/start-fake-provider.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import { readProcessStats } from '../support/read-process-stats.js';
import {
  countCommands,
  parseCommandStats,
  readRedisCpuSeconds,
} from '../support/read-redis-commandstats.js';
import {
  BULK_NAMESPACE,
  PROBE_KEY,
  renderBulkKeys,
  renderBulkWorld,
} from './render-bulk-key-manifests.js';
import { startBulkLocal, type BulkLocal } from './start-bulk-local.js';
import { summarizeCpuProfile, type CpuProfile } from '../profile/summarize-cpu-profile.js';
import { KeyReadiness } from './watch-key-readiness.js';
import { kubectl, probe, TIME } from './call-bulk-local.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { pollUntil } from '../support/poll-until.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';

function readCpuFile(path: string): number | null {
  if (!existsSync(path)) return null;
  const [user, system] = readFileSync(path, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  if (user === undefined || system === undefined || Number.isNaN(user + system)) return null;
  return Math.round((user + system) * 10) / 10;
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  if (values.some((value) => value === null)) return null;
  return Math.round(values.reduce<number>((sum, value) => sum + (value ?? 0), 0) * 10) / 10;
}

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

async function metricValue(metricsUrl: string, name: string): Promise<number | null> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((one) => one.startsWith(`${name} `));
  return line === undefined ? null : Number(line.split(' ')[1]);
}

interface SuspendFigures {
  /** Keys Ready when the patch was sent (the backlog behind it). */
  readyWhenSent: number;
  /** From the `kubectl patch` start (includes kubectl's own start-up) to the first refusal. */
  fromCommandMs: number;
  /** From the patch's acknowledgement (kubectl returned) to the first refusal. */
  fromAcknowledgedMs: number;
}

async function suspendProbe(options: {
  local: BulkLocal;
  key: string;
  readiness: KeyReadiness;
}): Promise<SuspendFigures> {
  const { local, key } = options;
  const readyWhenSent = options.readiness.readyCount;
  const sent = performance.now();
  let acknowledged = 0;
  const patch = kubectl(local.kubeconfigPath, [
    'patch',
    'apikey',
    PROBE_KEY,
    '-n',
    BULK_NAMESPACE,
    '--type',
    'merge',
    '-p',
    '{"spec":{"suspend":true}}',
  ]).then(() => {
    acknowledged = performance.now();
  });
  let refused = 0;
  while (refused === 0) {
    if ((await probe(local.gatewayUrl, key)) === 'TG_KEY_SUSPENDED') refused = performance.now();
    else await new Promise((resolve) => setTimeout(resolve, 5));
    if (performance.now() - sent > 60_000) throw new Error('suspension not effective in 60 s');
  }
  await patch;
  return {
    readyWhenSent,
    fromCommandMs: refused - sent,
    fromAcknowledgedMs: refused - acknowledged,
  };
}

/** How the keys are sent: `kubectl apply` (a GET and a create per object) or server-side apply. */
type ApplyMode = 'client' | 'server';

const APPLY_ARGS: Record<ApplyMode, readonly string[]> = {
  client: ['apply'],
  server: ['apply', '--server-side'],
};

async function runOnce(
  count: number,
  options: { profile: boolean; timeoutMs: number; apply: ApplyMode; processes: number },
) {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-bulk-keys-'));
  const profileDirectory = join(folder, 'profile');
  const redisServer = await startRedisServer();
  const provider = await startFakeProvider({ credential: null });
  const redis = new Redis(redisServer.url);
  let local: BulkLocal | null = null;
  let readiness: KeyReadiness | null = null;
  try {
    local = await startBulkLocal({
      dataDirectory: join(folder, 'data'),
      redisUrl: redisServer.url,
      nodeFlags: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : [],
    });
    const kubeconfig = local.kubeconfigPath;
    await kubectl(kubeconfig, ['apply', '-f', '-'], {
      input: renderBulkWorld({ providerUrl: provider.url }),
    });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfig);
    readiness = new KeyReadiness(kubeConfig, BULK_NAMESPACE, () => true);
    await readiness.start();
    const watched = readiness;
    await Promise.race([
      watched.until(() => watched.readyAt.has(PROBE_KEY)),
      new Promise((_, reject) => {
        setTimeout(() => {
          reject(new Error('probe not Ready'));
        }, 30_000).unref();
      }),
    ]);
    const encoded = await kubectl(kubeconfig, [
      'get',
      'secret',
      `${PROBE_KEY}-key`,
      '-n',
      BULK_NAMESPACE,
      '-o',
      'jsonpath={.data.apiKey}',
    ]);
    const probeKey = Buffer.from(encoded, 'base64').toString('utf8');
    const gatewayUrl = local.gatewayUrl;
    const before = await pollUntil(
      'the probe key to be admitted',
      async () => ((await probe(gatewayUrl, probeKey)) === 'ok' ? 'ok' : undefined),
      20_000,
      100,
    );

    // One file per kubectl process, the keys dealt round-robin (`--apply-processes`, default 1).
    const manifests = Array.from({ length: options.processes }, (_, index) =>
      join(folder, `keys-${String(index)}.yaml`),
    );
    const documents = renderBulkKeys(count).split('\n---\n');
    manifests.forEach((manifest, index) => {
      const mine = documents.filter((_, at) => at % options.processes === index);
      writeFileSync(manifest, `${mine.join('\n---\n').trimEnd()}\n`);
    });
    const isBulk = (name: string): boolean => name !== PROBE_KEY;
    const pid = local.pid;
    const cpuBefore = readProcessStats(pid).cpuSeconds;
    const redisCpuBefore = await readRedisCpuSeconds(redis);
    await redis.config('RESETSTAT');
    let peakRssMb = readProcessStats(pid).rssMb;
    const rssAtStart = peakRssMb;
    const progress: { seconds: number; exist: number; ready: number; rssMb: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      const stats = readProcessStats(pid);
      peakRssMb = Math.max(peakRssMb, stats.rssMb);
      progress.push({
        seconds: Math.round((performance.now() - started) / 100) / 10,
        exist: [...watched.seen].filter(isBulk).length,
        ready: [...watched.readyAt.keys()].filter(isBulk).length,
        rssMb: Math.round(stats.rssMb),
      });
    }, 1000);
    const bulkReady = (): number => watched.readyCount - 1;
    const allReady = watched.until(() => bulkReady() >= count);
    const applyCpuFiles = manifests.map((manifest) => `${manifest}.cpu.txt`);
    const apply = Promise.all(
      manifests.map((manifest, index) =>
        kubectl(kubeconfig, [...APPLY_ARGS[options.apply], '-f', manifest], {
          timeoutMs: options.timeoutMs,
          ...(existsSync(TIME) ? { cpuFile: applyCpuFiles[index] ?? '' } : {}),
        }),
      ),
    ).then(() => performance.now() - started);
    // Suspend while the import is in full flow: a fifth of the keys exist, most not yet Ready.
    await watched.until(() => watched.seen.size - 1 >= Math.ceil(count / 5));
    const suspend = await suspendProbe({ local, key: probeKey, readiness: watched });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      allReady,
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`only ${bulkReady()} of ${count} Ready after ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    const allReadyMs = performance.now() - started;
    clearInterval(sampler);
    const applyMs = await apply;
    const stats = readProcessStats(pid);
    const redisCpu = (await readRedisCpuSeconds(redis)) - redisCpuBefore;
    const commands = countCommands(parseCommandStats(await redis.info('commandstats')));
    const policies = await redis.hlen('tg:{keys}:digests');
    const secrets = (
      await kubectl(kubeconfig, ['get', 'secrets', '-n', BULK_NAMESPACE, '-o', 'name'])
    )
      .split('\n')
      .filter((line) => line.startsWith('secret/bulk-')).length;
    const heapUsed = await metricValue(local.metricsUrl, 'tollgate_nodejs_heap_size_used_bytes');
    const result = {
      keys: count,
      applyMs: Math.round(applyMs),
      allReadyMs: Math.round(allReadyMs),
      keysPerSecond: Math.round((count / allReadyMs) * 1000),
      probeBefore: before,
      suspend: {
        readyWhenSent: suspend.readyWhenSent,
        fromCommandMs: Math.round(suspend.fromCommandMs),
        fromAcknowledgedMs: Math.round(suspend.fromAcknowledgedMs),
      },
      process: {
        cpuSeconds: Math.round((stats.cpuSeconds - cpuBefore) * 10) / 10,
        rssAtStartMb: Math.round(rssAtStart),
        peakRssMb: Math.round(Math.max(peakRssMb, stats.rssMb)),
        rssAfterMb: Math.round(stats.rssMb),
        vmHwmMb: Math.round(stats.peakRssMb),
        heapUsedAfterMb: heapUsed === null ? null : Math.round(heapUsed / 2 ** 20),
      },
      /** kubectl apply's own CPU (it runs beside the process, on the other core). */
      kubectlApplyCpuSeconds: sumOrNull(applyCpuFiles.map(readCpuFile)),
      applyProcesses: options.processes,
      redis: {
        cpuSeconds: Math.round(redisCpu * 100) / 100,
        commands: commands.total,
        commandsPerKey: Math.round((commands.total / count) * 10) / 10,
        byCommand: commands.byCommand,
      },
      check: { policiesInStore: policies, keySecrets: secrets, logLines: local.logLines },
      progress,
      profile: null as ReturnType<typeof summarizeCpuProfile> | null,
      profileFile: null as string | null,
    };
    readiness.stop();
    readiness = null;
    await local.stop();
    local = null;
    if (options.profile) {
      const file = readdirSync(profileDirectory).find((name) => name.endsWith('.cpuprofile'));
      if (file !== undefined) {
        const text = readFileSync(join(profileDirectory, file), 'utf8');
        result.profile = summarizeCpuProfile(JSON.parse(text) as CpuProfile, 25);
        const kept = `bench/results/profiles/bulk-keys-${count}.cpuprofile`;
        mkdirSync(root('bench/results/profiles'), { recursive: true });
        writeFileSync(root(kept), text);
        result.profileFile = kept;
      }
    }
    return result;
  } catch (error) {
    if (local !== null) process.stderr.write(`${local.tail().join('\n')}\n`);
    throw error;
  } finally {
    readiness?.stop();
    await local?.stop();
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
      profile: { type: 'boolean', default: false },
      'timeout-s': { type: 'string', default: '900' },
      apply: { type: 'string', default: 'client' },
      'apply-processes': { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  const counts = values.keys.split(',').map(Number);
  const timeoutMs = Number(values['timeout-s']) * 1000;
  if (values.apply !== 'client' && values.apply !== 'server') {
    throw new Error(`--apply is client or server, not ${values.apply}`);
  }
  const apply: ApplyMode = values.apply;
  const processes = Number(values['apply-processes']);
  if (!Number.isInteger(processes) || processes < 1) {
    throw new Error(`--apply-processes is a whole number from 1, not ${values['apply-processes']}`);
  }
  const described = describeBenchFacts('bench/macro/bulk-keys.ts');
  const facts = {
    date: new Date().toISOString(),
    command: described.command.replace(
      'npx tsx bench/macro/bulk-keys.ts',
      'npm run bench:bulk-keys --',
    ),
    commit: described.commit,
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} CPUs`,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    apply: values.apply,
    applyProcesses: processes,
    node: process.version,
  };
  const runs = [];
  for (const count of counts) {
    process.stdout.write(`bulk-keys: ${new Date().toISOString()} importing ${count} keys\n`);
    const result = await runOnce(count, { profile: values.profile, timeoutMs, apply, processes });
    const { progress, profile, redis, ...rest } = result;
    const summary = {
      ...rest,
      redis: { ...redis, byCommand: undefined },
      samples: progress.length,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    if (profile !== null) {
      process.stdout.write(
        `${profile.areas.map((area) => `  ${area.name}: ${area.ms.toFixed(0)} ms (${(area.share * 100).toFixed(1)} %)`).join('\n')}\n`,
      );
      process.stdout.write(
        `${profile.functions.map((one) => `  ${one.name}: ${one.ms.toFixed(0)} ms (${(one.share * 100).toFixed(1)} %)`).join('\n')}\n`,
      );
    }
    runs.push(result);
  }
  const file =
    values.out ??
    `bench/results/${facts.date.slice(0, 10)}-bulk-keys${values.profile ? '-profile' : ''}.json`;
  mkdirSync(root('bench/results'), { recursive: true });
  writeFileSync(
    isAbsolute(file) ? file : root(file),
    `${JSON.stringify({ facts, runs }, null, 2)}\n`,
  );
  process.stdout.write(`bulk-keys: wrote ${file}\n`);
  for (const written of updateBenchSummaries()) process.stdout.write(`bench: wrote ${written}\n`);
}

await main();
process.exit(0);
