/**
 * The chart's dashboards and alerts against a real Prometheus (Debian's /usr/bin/prometheus)
 * scraping `tollgate local` under traffic: every dashboard variable lists values, every panel query
 * returns data over the run, every alert expression evaluates and reads metrics that exist, every
 * rule evaluates without error, and the conditions the traffic caused (a store outage, keys near
 * and at their quota, failing upstreams, a burst of failed console sign-ins, trace exports to a
 * closed port, notifications a receiver refuses) fire their alerts while the healthy parts fire
 * none.
 * Queries that read only metrics listed in PENDING_UPSTREAM_POOL_METRICS (none now) may be empty;
 * the test prints them. Every other query must return data.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROMETHEUS_BINARY,
  PROMTOOL_BINARY,
  startPrometheus,
  type PrometheusServer,
} from './prometheus-server.js';
import {
  CHART,
  PENDING_UPSTREAM_POOL_METRICS,
  alertRuleFileText,
  alertRules,
  dashboardFiles,
  dashboardQueries,
  dashboardVariables,
  metricNames,
  parseLabelValues,
  quotaWarningRatio,
  readDashboard,
  readsOnlyPendingMetrics,
  substituteVariables,
} from './monitoring-sources.js';
import {
  consoleFromBanner,
  driveConsoleTraffic,
  type ConsoleTraffic,
} from './drive-console-traffic.js';
import {
  answeredTraffic,
  bringKeysToQuota,
  createWorld,
  refusedAndFailedTraffic,
  startMonitoringStack,
  startTestProviders,
  storeOutage,
  type KeyName,
  type MonitoringStack,
} from './monitoring-stack.js';

const ratio = quotaWarningRatio();
const ruleText = alertRuleFileText(ratio);
const rules = alertRules(ruleText);
const dashboards = dashboardFiles().map(readDashboard);

interface Run {
  folder: string;
  ruleFile: string;
  start: number;
  providers?: Awaited<ReturnType<typeof startTestProviders>>;
  stack?: MonitoringStack;
  prometheus?: PrometheusServer;
  keys?: Record<KeyName, string>;
  statuses: Record<string, number[]>;
  console?: ConsoleTraffic;
  quotaGaugesSeen?: boolean;
}

const run: Run = {
  folder: mkdtempSync(join(tmpdir(), 'tollgate-monitoring-rules-')),
  ruleFile: '',
  start: 0,
  statuses: {},
};

function prometheus(): PrometheusServer {
  if (run.prometheus === undefined) throw new Error('prometheus did not start');
  return run.prometheus;
}

/** Polls an instant query until it returns a series; false at the deadline. */
async function waitForQuery(
  server: PrometheusServer,
  expr: string,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const result = await server.query(expr);
    if (result.status === 'success' && result.data.result.length > 0) return true;
    await sleep(1_000);
  }
  return false;
}

/**
 * Waits (15 s at most) until Prometheus has scraped the gateway's metrics port successfully after
 * this moment, so that the next increment of a counter is seen as an increase. A fixed pause is not
 * enough on a loaded machine, where a scrape can time out.
 */
async function freshGatewayScrape(): Promise<boolean> {
  const after = Date.now() / 1000;
  await sleep(1_000);
  return waitForQuery(
    prometheus(),
    `timestamp(up{job="tollgate-gateway"} == 1) > ${String(after)}`,
    15_000,
  );
}

function helm(args: readonly string[]): string {
  const result = spawnSync('helm', ['template', 'monitoring', CHART, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status !== 0) throw new Error(`helm template: ${result.stderr}`);
  return result.stdout;
}

function renderedObjects(text: string): Record<string, unknown>[] {
  return parseAllDocuments(text)
    .map((document) => document.toJSON() as Record<string, unknown> | null)
    .filter((object): object is Record<string, unknown> => object !== null);
}

beforeAll(async () => {
  if (!existsSync(PROMETHEUS_BINARY) || !existsSync(PROMTOOL_BINARY)) {
    throw new Error(
      `${PROMETHEUS_BINARY} and ${PROMTOOL_BINARY} are needed (.ci/run installs them)`,
    );
  }
  run.ruleFile = join(run.folder, 'tollgate-alerts.yaml');
  writeFileSync(run.ruleFile, ruleText);
  run.start = Math.floor(Date.now() / 1000) - 1;
  run.providers = await startTestProviders();
  run.stack = await startMonitoringStack();
  const stack = run.stack;
  // The PodMonitors' view: a job per component, the release namespace as a target label, and the
  // operator's own `namespace` labels (the accounts of the spend gauges) kept. In local mode the
  // recorder's and the console's metrics are on the gateway's port.
  run.prometheus = await startPrometheus({
    ruleFile: run.ruleFile,
    jobs: [
      { job: 'tollgate-gateway', target: stack.gatewayMetrics, labels: { namespace: 'tollgate' } },
      {
        job: 'tollgate-operator',
        target: stack.operatorMetrics,
        labels: { namespace: 'tollgate' },
        honorLabels: true,
      },
    ],
  });
  const keys = await createWorld(stack.local, run.providers);
  run.keys = keys;
  const gatewayUrl = stack.local.gatewayUrl;
  const quota = await bringKeysToQuota(stack.local, keys);
  run.statuses.quota = [quota.fullStatus];
  run.statuses.answered = await answeredTraffic(gatewayUrl, keys, 3);
  run.statuses.refused = await refusedAndFailedTraffic(gatewayUrl, keys, freshGatewayScrape);
  run.console = await driveConsoleTraffic(
    consoleFromBanner(stack.local.output()),
    freshGatewayScrape,
  );
  const outage = await storeOutage(stack, run.providers, keys);
  run.statuses.outage = outage.duringOutage;
  run.statuses.outageStreams = outage.streams;
  run.statuses.handedOver = [outage.handedOver ? 1 : 0];
  // After the outage: traffic again, so that rates cover both sides of it.
  run.statuses.after = await answeredTraffic(gatewayUrl, keys, 2);
  // The operator reads key usage once per round (a minute in local mode), and only then sets the
  // spend gauges of the keys whose quota changed; then the last scrapes and rule evaluations.
  run.quotaGaugesSeen = await waitForQuery(
    prometheus(),
    'tollgate_operator_key_quota_usd{name="monitoring-near"} > 0 and on (name) tollgate_operator_key_used_usd > 0',
    80_000,
  );
  await sleep(3_000);
}, 170_000);

afterAll(async () => {
  await run.prometheus?.stop();
  await run.stack?.stop();
  await run.providers?.close();
  rmSync(run.folder, { recursive: true, force: true });
}, 60_000);

describe('monitoring: dashboards and alerts on a real Prometheus', () => {
  it('drove the traffic the panels and alerts watch', () => {
    const answered = [...(run.statuses.answered ?? []), ...(run.statuses.after ?? [])];
    expect(answered.length).toBe(40);
    expect(new Set(answered)).toEqual(new Set([200]));
    // Unknown key 401, wrong platform 4xx, the failing and the unreachable upstreams 5xx.
    const refused = run.statuses.refused ?? [];
    expect(refused).toContain(401);
    expect(refused.filter((status) => status >= 500).length).toBeGreaterThanOrEqual(6);
    expect(run.statuses.quota).toEqual([429]);
    expect(new Set(run.statuses.outage)).toEqual(new Set([503]));
    expect(run.statuses.outageStreams).toEqual([200, 200]);
    expect(run.statuses.handedOver).toEqual([1]);
    expect(run.quotaGaugesSeen).toBe(true);
    // The quota keys' notifications reached the receiver, which refused them for good.
    expect(run.providers?.refusedDeliveries()).toBeGreaterThanOrEqual(1);
    // The console: the admin signed in and read; a missing key; 3 wrong passwords from one
    // (user, address), then the growing wait (a slow password check may let one more through).
    expect(run.console?.signIn).toBe(200);
    expect(new Set(run.console?.reads)).toEqual(new Set([200]));
    expect(run.console?.missingKey).toEqual([404, 404, 404]);
    const failed = run.console?.failedSignIns ?? [];
    expect(failed).toHaveLength(30);
    expect(failed.slice(0, 3)).toEqual([401, 401, 401]);
    expect(failed.slice(3, 5)).toContain(429);
    expect(failed.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });

  it('promtool accepts the rule file, and the chart puts the same rules in its PrometheusRule', () => {
    const check = spawnSync(PROMTOOL_BINARY, ['check', 'rules', run.ruleFile], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(check.stderr + check.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.status).toBe(0);
    const [rule] = renderedObjects(
      helm([
        '--set',
        'monitoring.prometheusRule.enabled=true',
        '--show-only',
        'templates/monitoring/prometheusrule.yaml',
      ]),
    );
    expect(rule?.kind).toBe('PrometheusRule');
    expect((rule?.spec as { groups: unknown }).groups).toEqual(
      (renderedObjects(ruleText)[0] as { groups: unknown }).groups,
    );
    // Every alert is documented for the on-call: summary, description, severity, and a runbook
    // section of its own in docs/monitoring.md that its runbook_url points at.
    const runbooks = readFileSync(join(CHART, '..', '..', 'docs', 'monitoring.md'), 'utf8');
    for (const alert of rules) {
      expect(runbooks, alert.alert).toContain(`\n### ${alert.alert}\n`);
      expect(alert.annotations.runbook_url, alert.alert).toMatch(
        new RegExp(`/docs/monitoring\\.md#${alert.alert.toLowerCase()}$`),
      );
      expect(Object.keys(alert.annotations).sort(), alert.alert).toEqual([
        'description',
        'runbook_url',
        'summary',
      ]);
      expect(['critical', 'warning', 'info'], alert.alert).toContain(alert.labels.severity);
    }
  });

  it('the chart renders a PodMonitor per component with metrics and a ConfigMap per dashboard', () => {
    const objects = renderedObjects(
      helm([
        '--set',
        'postgresql.url=postgres://tollgate@postgresql/tollgate',
        '--set',
        'monitoring.podMonitors.enabled=true',
        '--set',
        'monitoring.dashboards.enabled=true',
        '--show-only',
        'templates/monitoring/podmonitors.yaml',
        '--show-only',
        'templates/monitoring/dashboards.yaml',
      ]),
    );
    const podMonitors = objects.filter((object) => object.kind === 'PodMonitor');
    const jobs = podMonitors.map((monitor) => {
      const spec = monitor.spec as {
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: { port: string; relabelings: { replacement?: string }[] }[];
      };
      expect(spec.podMetricsEndpoints[0]?.port).toBe('metrics');
      return [
        spec.selector.matchLabels['app.kubernetes.io/component'],
        spec.podMetricsEndpoints[0]?.relabelings[0]?.replacement,
      ];
    });
    // Every component; the recorder runs when the ledger has a database.
    expect(jobs.sort()).toEqual([
      ['console', 'tollgate-console'],
      ['gateway', 'tollgate-gateway'],
      ['operator', 'tollgate-operator'],
      ['recorder', 'tollgate-recorder'],
    ]);
    const configMaps = objects.filter((object) => object.kind === 'ConfigMap');
    expect(configMaps).toHaveLength(dashboards.length);
    for (const configMap of configMaps) {
      const labels = (configMap.metadata as { labels: Record<string, string> }).labels;
      expect(labels.grafana_dashboard).toBe('1');
      const [file, json] = Object.entries(configMap.data as Record<string, string>)[0] ?? [];
      const shipped = JSON.parse(json ?? '{}') as { uid: string };
      expect(file).toBe(`${shipped.uid}.json`);
      expect(shipped).toEqual(dashboards.find((dashboard) => dashboard.uid === shipped.uid));
    }
  });

  it('every dashboard variable lists values', async () => {
    const empty: string[] = [];
    for (const dashboard of dashboards) {
      for (const variable of dashboardVariables(dashboard)) {
        const { metric, label } = parseLabelValues(variable.query);
        const body = (await prometheus().get(
          `/api/v1/label/${label}/values?${new URLSearchParams({ 'match[]': metric, start: String(run.start) }).toString()}`,
        )) as { data: string[] };
        const pending = PENDING_UPSTREAM_POOL_METRICS.includes(metric);
        if (body.data.length === 0 && !pending)
          empty.push(`${variable.dashboard} $${variable.name}`);
      }
    }
    expect(empty).toEqual([]);
  });

  it('every dashboard panel query returns data over the run', async () => {
    const end = Math.ceil(Date.now() / 1000);
    const rangeSeconds = end - run.start;
    const errors: string[] = [];
    const empty: string[] = [];
    const emptyPending: string[] = [];
    let queries = 0;
    for (const dashboard of dashboards) {
      const variables = dashboardVariables(dashboard).map((variable) => variable.name);
      for (const query of dashboardQueries(dashboard)) {
        queries += 1;
        const name = `${query.dashboard} / ${query.panel} / ${query.refId}`;
        const expr = substituteVariables(query.raw, {
          variables,
          rangeSeconds,
          rateInterval: '15s',
        });
        const result = await prometheus().queryRange(expr, run.start, end, 2);
        if (result.status !== 'success') {
          errors.push(`${name}: ${result.error ?? 'error'}: ${expr}`);
          continue;
        }
        const hasData = result.data.result.some((series) =>
          (series.values ?? []).some(([, value]) => Number.isFinite(Number(value))),
        );
        const pending = readsOnlyPendingMetrics(query.raw);
        if (!hasData && pending) emptyPending.push(name);
        else if (!hasData) empty.push(`${name}: ${expr}`);
      }
    }
    if (emptyPending.length > 0) {
      process.stdout.write(
        `monitoring: ${emptyPending.length} of ${queries} panel queries read only metrics not exported yet:\n  ${emptyPending.join('\n  ')}\n`,
      );
    }
    expect(queries).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    expect(empty).toEqual([]);
  });

  it('every alert expression evaluates, and every metric it reads exists', async () => {
    const errors: string[] = [];
    const missing: string[] = [];
    const missingPending = new Set<string>();
    for (const rule of rules) {
      const result = await prometheus().query(rule.expr);
      if (result.status !== 'success') errors.push(`${rule.alert}: ${result.error ?? 'error'}`);
      for (const metric of metricNames(rule.expr)) {
        const series = await prometheus().seriesCount(metric, run.start);
        const pending = PENDING_UPSTREAM_POOL_METRICS.includes(metric);
        if (series === 0 && pending) missingPending.add(metric);
        else if (series === 0) missing.push(`${rule.alert}: ${metric}`);
      }
    }
    if (missingPending.size > 0) {
      process.stdout.write(
        `monitoring: alert metrics not exported yet: ${[...missingPending].join(', ')}\n`,
      );
    }
    expect(errors).toEqual([]);
    expect(missing).toEqual([]);
  });

  it('Prometheus evaluates every rule cleanly, and what the run caused fires', async () => {
    interface RuleState {
      name: string;
      health: string;
      lastError?: string;
      state?: string;
      alerts?: { labels: Record<string, string> }[];
    }
    const body = (await prometheus().get('/api/v1/rules?type=alert')) as {
      data: { groups: { rules: RuleState[] }[] };
    };
    const states = body.data.groups.flatMap((group) => group.rules);
    expect(states.map((state) => state.name).sort()).toEqual(
      rules.map((rule) => rule.alert).sort(),
    );
    const unhealthy = states
      .filter((state) => state.health !== 'ok')
      .map((state) => `${state.name}: ${state.health} ${state.lastError ?? ''}`);
    expect(unhealthy).toEqual([]);
    const active = new Map(
      states
        .filter((state) => state.state === 'pending' || state.state === 'firing')
        .map((state) => [state.name, state.alerts ?? []]),
    );
    for (const name of [
      'TollgateStoreUnavailable',
      'TollgateSettlementsFailing',
      'TollgateSettlementsHandedOver',
      'TollgateKeyNearQuota',
      'TollgateKeyQuotaExhausted',
      'TollgateUpstreamFailuresReachCallers',
      'TollgateGatewayErrorRate',
      'TollgateConsoleSignInFailures',
      'TollgateTraceSpansDropped',
      'TollgateNotificationDeliveriesFailing',
    ]) {
      expect([...active.keys()], name).toContain(name);
    }
    const keysNamed = (alert: string) =>
      (active.get(alert) ?? []).map((instance) => instance.labels.name).sort();
    expect(keysNamed('TollgateKeyNearQuota')).toEqual(['monitoring-near']);
    expect(keysNamed('TollgateKeyQuotaExhausted')).toEqual(['monitoring-full']);
    // The healthy parts stay quiet (not load-sensitive ones: a busy machine may delay a scrape or
    // the event loop for a moment, which puts their alerts in pending).
    for (const name of [
      'TollgateOperatorNoLeader',
      'TollgateOperatorAbsent',
      'TollgateOperatorSeveralLeaders',
      'TollgateRecorderStalled',
      'TollgateCountersRestoring',
      'TollgatePolicyCacheReloaded',
      'TollgateConsoleErrors',
      'TollgateCapturesDropped',
      'TollgateCaptureFailures',
    ]) {
      expect([...active.keys()], name).not.toContain(name);
    }
  });
});
