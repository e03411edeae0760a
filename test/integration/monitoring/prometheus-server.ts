/**
 * Test support: Debian's `/usr/bin/prometheus` on a free port with a generated configuration
 * (static scrape targets, one rule file, scrape and evaluation every second) and a throw-away TSDB,
 * plus the few HTTP API calls the monitoring test makes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { freePort } from '../../support/redis-server.js';

export const PROMETHEUS_BINARY = process.env.PROMETHEUS_BINARY ?? '/usr/bin/prometheus';
export const PROMTOOL_BINARY = process.env.PROMTOOL_BINARY ?? '/usr/bin/promtool';

export interface ScrapeJob {
  job: string;
  /** `host:port` of the metrics endpoint (path /metrics). */
  target: string;
  /** Target labels added to every series, as a PodMonitor's relabelings would. */
  labels?: Record<string, string>;
  /** Keep the scraped series' own labels on conflicts (the operator's PodMonitor does). */
  honorLabels?: boolean;
}

export interface PromSample {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

export interface PromResult {
  status: 'success' | 'error';
  error?: string;
  data: { resultType: string; result: PromSample[] };
}

export interface PrometheusServer {
  url: string;
  /** Instant query; rejects on HTTP failures only (a PromQL error comes back as status error). */
  query(expr: string, time?: number): Promise<PromResult>;
  queryRange(expr: string, start: number, end: number, stepSeconds: number): Promise<PromResult>;
  /** Names of the series Prometheus holds for `metric` between `start` and now. */
  seriesCount(metric: string, start: number): Promise<number>;
  get(path: string): Promise<unknown>;
  output(): string;
  stop(): Promise<void>;
}

export async function startPrometheus(options: {
  jobs: ScrapeJob[];
  ruleFile: string;
}): Promise<PrometheusServer> {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-prometheus-'));
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '900ms', evaluation_interval: '1s' },
    rule_files: [options.ruleFile],
    scrape_configs: options.jobs.map((job) => ({
      job_name: job.job,
      honor_labels: job.honorLabels ?? false,
      static_configs: [{ targets: [job.target], labels: job.labels ?? {} }],
    })),
  };
  const configFile = join(folder, 'prometheus.yml');
  writeFileSync(configFile, stringify(config));
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS_BINARY,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(folder, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not start:\n${output}`);
    }
    await sleep(100);
  }
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(`${url}${path}`);
    const body: unknown = await response.json();
    if (response.status >= 500) throw new Error(`GET ${path}: ${response.status}`);
    return body;
  };
  const api = (path: string, parameters: Record<string, string>): Promise<PromResult> =>
    get(`${path}?${new URLSearchParams(parameters).toString()}`) as Promise<PromResult>;
  return {
    url,
    query: (expr, time) =>
      api('/api/v1/query', { query: expr, ...(time === undefined ? {} : { time: String(time) }) }),
    queryRange: (expr, start, end, step) =>
      api('/api/v1/query_range', {
        query: expr,
        start: String(start),
        end: String(end),
        step: String(step),
      }),
    seriesCount: async (metric, start) => {
      const body = (await get(
        `/api/v1/series?${new URLSearchParams({ 'match[]': metric, start: String(start) }).toString()}`,
      )) as { data?: unknown[] };
      return body.data?.length ?? 0;
    },
    get,
    output: () => output,
    stop,
  };
}
