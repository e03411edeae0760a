/**
 * Test support: what the chart ships for monitoring, read from the chart itself: every Grafana
 * dashboard's variables and panel queries (with Grafana's variables substituted the way Grafana
 * would for "All" and a given range), the alert rules of files/alerts.yaml with the quota warning
 * ratio of values.yaml, and the metric names a PromQL expression reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CHART = fileURLToPath(new URL('../../../charts/tollgate', import.meta.url));
export const ALERTS_FILE = join(CHART, 'files', 'alerts.yaml');
export const QUOTA_PLACEHOLDER = '__QUOTA_WARNING_RATIO__';

/**
 * Metrics a dashboard or alert already reads while the process that will export them is still being
 * written. A panel query or alert that reads only these may return no data; the test prints them.
 * Empty: every query must return data. (It held the upstream pools' metrics until the gateway and the
 * operator exported them.)
 */
export const PENDING_UPSTREAM_POOL_METRICS: readonly string[] = [];

export interface DashboardQuery {
  dashboard: string;
  panel: string;
  refId: string;
  /** As written in the dashboard. */
  raw: string;
}

export interface DashboardVariable {
  dashboard: string;
  name: string;
  query: string;
}

interface GrafanaTarget {
  refId?: string;
  expr?: string;
}

interface GrafanaPanel {
  title?: string;
  type?: string;
  targets?: GrafanaTarget[];
  panels?: GrafanaPanel[];
}

interface GrafanaVariable {
  name: string;
  type: string;
  query?: string | { query?: string };
}

interface GrafanaDashboard {
  title: string;
  uid: string;
  panels: GrafanaPanel[];
  templating: { list: GrafanaVariable[] };
}

export function dashboardFiles(): string[] {
  return readdirSync(join(CHART, 'dashboards'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(CHART, 'dashboards', name));
}

export function readDashboard(file: string): GrafanaDashboard {
  return JSON.parse(readFileSync(file, 'utf8')) as GrafanaDashboard;
}

function flatten(panels: readonly GrafanaPanel[]): GrafanaPanel[] {
  return panels.flatMap((panel) => [panel, ...flatten(panel.panels ?? [])]);
}

export function dashboardQueries(dashboard: GrafanaDashboard): DashboardQuery[] {
  return flatten(dashboard.panels)
    .filter((panel) => panel.type !== 'row')
    .flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        dashboard: dashboard.title,
        panel: panel.title ?? '(untitled)',
        refId: target.refId ?? '?',
        raw: target.expr ?? '',
      })),
    );
}

export function dashboardVariables(dashboard: GrafanaDashboard): DashboardVariable[] {
  return dashboard.templating.list
    .filter((variable) => variable.type === 'query')
    .map((variable) => ({
      dashboard: dashboard.title,
      name: variable.name,
      query: typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? ''),
    }));
}

/**
 * Grafana's substitution for a query run over `rangeSeconds`: every dashboard variable at "All"
 * (the variables' allValue is `.*`), `$__rate_interval` and `$__interval` as given, `$__range` as
 * the range. Throws on a variable it does not know, so no `$` reaches Prometheus.
 */
export function substituteVariables(
  expr: string,
  options: { variables: readonly string[]; rangeSeconds: number; rateInterval: string },
): string {
  const known = new Set(options.variables);
  const substituted = expr.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => {
    if (name === '__rate_interval' || name === '__interval') return options.rateInterval;
    if (name === '__range') return `${options.rangeSeconds}s`;
    if (known.has(name)) return '.*';
    throw new Error(`unknown dashboard variable ${whole} in ${expr}`);
  });
  return substituted;
}

/** `label_values(metric, label)` of a query variable. */
export function parseLabelValues(query: string): { metric: string; label: string } {
  const match = /^label_values\(\s*([a-zA-Z_:][\w:]*)\s*,\s*(\w+)\s*\)$/.exec(query.trim());
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new Error(`not a label_values(metric, label) query: ${query}`);
  }
  return { metric: match[1], label: match[2] };
}

export function quotaWarningRatio(): number {
  const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as {
    monitoring: { prometheusRule: { quotaWarningRatio: number } };
  };
  return values.monitoring.prometheusRule.quotaWarningRatio;
}

/** files/alerts.yaml with the ratio substituted: a plain Prometheus rule file. */
export function alertRuleFileText(ratio: number): string {
  return readFileSync(ALERTS_FILE, 'utf8').replaceAll(QUOTA_PLACEHOLDER, String(ratio));
}

export interface AlertRule {
  group: string;
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export function alertRules(text: string): AlertRule[] {
  const file = parse(text) as { groups: { name: string; rules: Omit<AlertRule, 'group'>[] }[] };
  return file.groups.flatMap((group) =>
    group.rules.map((rule) => ({ group: group.name, ...rule })),
  );
}

/** The `tollgate_*` metric names an expression reads (histogram suffixes kept). */
export function metricNames(expr: string): string[] {
  return [...new Set(expr.match(/\btollgate_[a-z0-9_]+/g) ?? [])].sort();
}

export function readsOnlyPendingMetrics(expr: string): boolean {
  const names = metricNames(expr);
  return names.length > 0 && names.every((name) => PENDING_UPSTREAM_POOL_METRICS.includes(name));
}
