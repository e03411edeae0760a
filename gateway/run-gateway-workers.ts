/**
 * `tollgate gateway --workers N`: N gateway processes sharing one listening port through
 * node:cluster. The primary forks the workers (each runs the ordinary gateway with the same flags,
 * minus `--workers`), turns SIGTERM / SIGINT into a SIGTERM to every worker so each drains,
 * restarts a worker that dies unexpectedly, and returns once all have exited. The primary serves
 * the metrics port: the sum of every worker's registry (prom-client's `AggregatorRegistry`), so a
 * scrape never lands on one random worker. With N = 1 the gateway runs in this process.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import { loadGatewaySettings } from './gateway-config.js';
import { buildMetricsServer } from './metrics/serve-metrics.js';
import { run as runGateway } from './run-gateway.js';

export interface WorkersOptions {
  workers: number;
  /** What each worker runs (the gateway); resolves when the worker has drained. */
  start: () => Promise<void>;
  /** Called in the primary once every worker listens. */
  onListening?: () => void;
  /** Where the primary serves the workers' summed metrics; none when absent. */
  metrics?: { port: number; host: string };
}

/** Splits `--workers N` / `--workers=N` off the gateway's flags; `auto` means one per CPU. */
export function takeWorkersFlag(args: readonly string[]): { workers: number; rest: string[] } {
  const rest: string[] = [];
  let text: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? '';
    if (argument === '--workers') text = args[++index] ?? '';
    else if (argument.startsWith('--workers=')) text = argument.slice('--workers='.length);
    else rest.push(argument);
  }
  if (text === undefined) return { workers: 1, rest };
  const workers = text === 'auto' ? availableParallelism() : Number(text);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    throw new Error(`--workers must be a whole number from 1 to 256 or 'auto', got '${text}'`);
  }
  return { workers, rest };
}

export async function runInWorkers(options: WorkersOptions): Promise<void> {
  if (options.workers <= 1 || !cluster.isPrimary) {
    await options.start();
    // A drained worker would otherwise stay alive on its IPC channel to the primary.
    if (cluster.isWorker) process.disconnect();
    return;
  }
  let stopping = false;
  let listening = 0;
  const live = new Set<Worker>();
  const fork = (): void => {
    if (stopping) return;
    const worker = cluster.fork();
    live.add(worker);
    worker.once('listening', () => {
      listening += 1;
      if (listening === options.workers) options.onListening?.();
    });
    worker.once('exit', () => {
      live.delete(worker);
      if (!stopping) setTimeout(fork, 1000);
      else if (live.size === 0) cluster.emit('all-exited');
    });
  };
  for (let index = 0; index < options.workers; index++) fork();
  const aggregator = new AggregatorRegistry();
  const metrics =
    options.metrics === undefined
      ? null
      : buildMetricsServer({
          contentType: aggregator.contentType,
          metrics: () => aggregator.clusterMetrics(),
        });
  if (metrics !== null && options.metrics !== undefined) await metrics.listen(options.metrics);
  // Workers drain on SIGTERM. They may also get a terminal's SIGINT themselves (same process
  // group); their SIGTERM listener is still in place then, so the forwarded signal is harmless.
  await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
  stopping = true;
  const allExited = once(cluster, 'all-exited');
  for (const worker of live) worker.process.kill('SIGTERM');
  if (live.size > 0) await allExited;
  await metrics?.close();
}

export async function run(args: readonly string[]): Promise<void> {
  const { workers, rest } = takeWorkersFlag(args);
  const settings = cluster.isPrimary && workers > 1 ? loadGatewaySettings(rest) : null;
  await runInWorkers({
    workers,
    start: () => runGateway(rest),
    ...(settings === null
      ? {}
      : { metrics: { port: settings.metricsPort, host: settings.metricsHost } }),
  });
}
