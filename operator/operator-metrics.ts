/**
 * Operator metrics on an own prom-client Registry (prefix `tollgate_operator_`): reconciles by kind
 * and result, durations, queue depth, watch events, leadership; optionally per-account and per-key
 * spend and quota gauges (`--spend-gauges`), whose labels are object names, never key values.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiKey } from '../crds/schema/resources.js';
import type { AccountCounters, KeyCounters } from '../store/store.js';
import { parseMoneyToNano } from './reconcile/parse-money.js';

const PREFIX = 'tollgate_operator_';
const NANO = 1e9;

export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({
    name: `${PREFIX}reconcile_total`,
    help: 'Reconciles by kind and result.',
    labelNames: ['kind', 'result'],
    registers: [this.registry],
  });
  readonly reconcileSeconds = new Histogram({
    name: `${PREFIX}reconcile_duration_seconds`,
    help: 'Reconcile durations by kind and result.',
    labelNames: ['kind', 'result'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: `${PREFIX}queue_depth`,
    help: 'Object keys waiting in the work queue.',
    registers: [this.registry],
  });
  readonly watchEvents = new Counter({
    name: `${PREFIX}watch_events_total`,
    help: 'Watch events by kind and type.',
    labelNames: ['kind', 'type'],
    registers: [this.registry],
  });
  readonly lists = new Counter({
    name: `${PREFIX}lists_total`,
    help: 'Lists by kind: the first one and every relist after 410 Gone.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly leader = new Gauge({
    name: `${PREFIX}leader`,
    help: '1 while this process holds the leader Lease.',
    registers: [this.registry],
  });
  readonly policyReloads = new Counter({
    name: `${PREFIX}policy_reloads_total`,
    help: 'Full programs of the policy cache after its generation marker was found absent, by cause: lost (the store lost its data) or initial (a store never programmed).',
    labelNames: ['cause'],
    registers: [this.registry],
  });
  readonly policyReloadSeconds = new Histogram({
    name: `${PREFIX}policy_reload_duration_seconds`,
    help: 'Duration of a full program of the policy cache, from the marker found absent to the marker written.',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly policyReloading = new Gauge({
    name: `${PREFIX}policy_reloading`,
    help: '1 while this process programs the whole policy cache (its marker is absent meanwhile).',
    registers: [this.registry],
  });
  private readonly accountSpent: Gauge | null;
  private readonly accountReserved: Gauge | null;
  private readonly keyUsed: Gauge | null;
  private readonly keyQuota: Gauge | null;
  private readonly planWindowUsed: Gauge | null;
  private readonly planWindowCap: Gauge | null;
  private readonly memberBudgetUsed: Gauge | null;
  private readonly memberBudgetCap: Gauge | null;

  constructor(options: { spendGauges: boolean }) {
    // Both series exist from the start, so the first loss is an increase alerts can see.
    for (const cause of ['lost', 'initial']) this.policyReloads.inc({ cause }, 0);
    const gauge = (name: string, help: string, labelNames: string[]) =>
      options.spendGauges
        ? new Gauge({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] })
        : null;
    this.accountSpent = gauge('account_spent_usd', 'Spent USD per account.', ['namespace']);
    this.accountReserved = gauge('account_reserved_usd', 'Reserved USD per account.', [
      'namespace',
    ]);
    this.keyUsed = gauge('key_used_usd', 'Used quota USD per key.', ['namespace', 'name']);
    this.keyQuota = gauge('key_quota_usd', 'Quota USD per key (0 = unlimited).', [
      'namespace',
      'name',
    ]);
    const windowLabels = ['namespace', 'window'];
    this.planWindowUsed = gauge(
      'plan_window_used_usd',
      "USD spent in the current window of the account's plan.",
      windowLabels,
    );
    this.planWindowCap = gauge('plan_window_cap_usd', 'Cap USD of a plan window.', windowLabels);
    const memberLabels = ['namespace', 'owner', 'window'];
    this.memberBudgetUsed = gauge(
      'member_budget_used_usd',
      "USD spent by an owner's keys in the current member budget window.",
      memberLabels,
    );
    this.memberBudgetCap = gauge(
      'member_budget_cap_usd',
      'Cap USD of a member budget window.',
      memberLabels,
    );
  }

  /** Each capped window of the account's plan: its spend and cap (plan-gauges.ts). */
  observePlanWindows(
    namespace: string,
    windows: readonly { window: string; usedNano: number; capNano: number }[],
  ): void {
    for (const { window, usedNano, capNano } of windows) {
      this.planWindowUsed?.set({ namespace, window }, usedNano / NANO);
      this.planWindowCap?.set({ namespace, window }, capNano / NANO);
    }
  }

  /** Each capped member window of an owner: its spend and cap. */
  observeMemberBudget(
    labels: { namespace: string; owner: string },
    windows: readonly { window: string; usedNano: number; capNano: number }[],
  ): void {
    for (const { window, usedNano, capNano } of windows) {
      this.memberBudgetUsed?.set({ ...labels, window }, usedNano / NANO);
      this.memberBudgetCap?.set({ ...labels, window }, capNano / NANO);
    }
  }

  observeAccount(namespace: string, counters: AccountCounters): void {
    this.accountSpent?.set({ namespace }, counters.spentNano / NANO);
    this.accountReserved?.set({ namespace }, counters.reservedNano / NANO);
  }

  observeKeyUsage(apiKey: ApiKey, counters: KeyCounters): void {
    const labels = { namespace: apiKey.metadata.namespace ?? '', name: apiKey.metadata.name };
    this.keyUsed?.set(labels, counters.usedNano / NANO);
    const quota = apiKey.spec.limits?.quotaUSD;
    this.keyQuota?.set(labels, quota === undefined ? 0 : parseMoneyToNano(quota) / NANO);
  }

  forgetKey(apiKey: ApiKey): void {
    const labels = { namespace: apiKey.metadata.namespace ?? '', name: apiKey.metadata.name };
    this.keyUsed?.remove(labels);
    this.keyQuota?.remove(labels);
  }
}

/** Serves `/metrics` on its own port; resolves with the bound port. */
export async function serveMetrics(
  metrics: OperatorMetrics,
  options: { port: number; host: string },
): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text);
      },
      () => {
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
