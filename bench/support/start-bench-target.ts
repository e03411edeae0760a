/**
 * Starts the process a target needs: nothing for A (the provider itself), the bare proxy for B, the
 * gateway (memory store for C, the bench Redis for D) with 1 or 2 workers. Returns its URL, the pid
 * whose CPU and memory are the target's, and how to stop it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../gateway/gateway-node-flags.js';
import { freePort } from '../../test/support/redis-server.js';
import type { BenchCredentials } from './describe-bench-requests.js';
import type { BenchTarget } from './plan-bench-run.js';
import type { BenchGatewaySettings } from './serve-bench-gateway.js';
import { newBenchKeys } from './seed-bench-store.js';
import { spawnBenchChild, type BenchChild } from './spawn-bench-child.js';

export interface StartedTarget {
  url: string;
  pid: number;
  credentials: BenchCredentials;
  /** The target's own process (null for A, which is the provider). */
  child: BenchChild | null;
  stop(): Promise<void>;
}

export interface TargetEnvironment {
  provider: BenchChild;
  providerUrl: string;
  redisUrl: string | null;
  gatewayCpus: string | null;
  upstreamCredentials: BenchCredentials;
  /** Tollgate with every admission feature set (the side-by-side bench). */
  allFeatures?: boolean;
  /**
   * Node flags for Tollgate's process (`--trace-gc`, heap sizes), after the flags the chart runs
   * the gateway with (GATEWAY_NODE_FLAGS; a later flag overrides an earlier one).
   */
  gatewayNodeFlags?: readonly string[];
  /**
   * A command B's and Tollgate's process run under, and how long they may take to start under it
   * (count-call-instructions.ts runs them under callgrind).
   */
  serverWrapper?: { command: readonly string[]; readyTimeoutMs: number };
  /** Tollgate with tracing on, exporting every call's spans here (an OTLP/HTTP sink). */
  otlpEndpoint?: string;
}

function wrapperOptions(environment: TargetEnvironment): {
  wrapper?: readonly string[];
  readyTimeoutMs?: number;
} {
  const wrapper = environment.serverWrapper;
  return wrapper === undefined
    ? {}
    : { wrapper: wrapper.command, readyTimeoutMs: wrapper.readyTimeoutMs };
}

export async function startBenchTarget(
  target: BenchTarget,
  environment: TargetEnvironment,
): Promise<StartedTarget> {
  const upstream = environment.upstreamCredentials;
  if (target.scenario === 'A') {
    const pid = environment.provider.pid;
    return {
      url: environment.providerUrl,
      pid,
      credentials: upstream,
      child: null,
      stop: () => Promise.resolve(),
    };
  }
  if (target.scenario === 'B') {
    const proxy = await spawnBenchChild({
      script: './serve-bench-proxy.ts',
      args: [environment.providerUrl],
      cpus: environment.gatewayCpus,
      ...wrapperOptions(environment),
    });
    return {
      url: String(proxy.ready.url),
      pid: proxy.pid,
      credentials: upstream,
      child: proxy,
      stop: () => proxy.stop(),
    };
  }
  if (target.scenario === 'D' && environment.redisUrl === null) throw new Error('no bench Redis');
  const keys = newBenchKeys();
  const port = await freePort();
  const settings: BenchGatewaySettings = {
    store: target.scenario === 'D' ? 'redis' : 'memory',
    redisUrl: environment.redisUrl ?? '',
    redisPrefix: `tg-bench-${target.id}-${randomBytes(4).toString('hex')}:`,
    providerUrl: environment.providerUrl,
    port,
    workers: target.workers,
    keys,
    pepperHex: randomBytes(32).toString('hex'),
    credentialKeyHex: randomBytes(32).toString('hex'),
    allFeatures: environment.allFeatures === true,
    ...(environment.otlpEndpoint === undefined ? {} : { otlpEndpoint: environment.otlpEndpoint }),
  };
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  const file = join(folder, 'gateway.json');
  writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  let gateway: BenchChild;
  try {
    gateway = await spawnBenchChild({
      script: './serve-bench-gateway.ts',
      args: [file],
      cpus: environment.gatewayCpus,
      nodeFlags: [...GATEWAY_NODE_FLAGS, ...(environment.gatewayNodeFlags ?? [])],
      ...wrapperOptions(environment),
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: gateway.pid,
    credentials: keys,
    child: gateway,
    stop: () => gateway.stop(),
  };
}
