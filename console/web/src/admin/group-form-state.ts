/** The Group form (pure): its state from a spec, and the spec from its state. */
import {
  compact,
  decimalValue,
  integerValue,
  linesOf,
  listOf,
  recordOf,
  textOf,
  type FormProblem,
} from './spec-values.js';

export const PRICE_FIELDS = [
  { key: 'inputPerMTok', label: 'Input' },
  { key: 'outputPerMTok', label: 'Output' },
  { key: 'cacheReadPerMTok', label: 'Cache read' },
  { key: 'cacheWrite5mPerMTok', label: 'Cache write 5 min' },
  { key: 'cacheWrite1hPerMTok', label: 'Cache write 1 h' },
] as const;

export type PriceKey = (typeof PRICE_FIELDS)[number]['key'];
export type Prices = Record<PriceKey, string>;

export interface UpstreamRefRow {
  name: string;
  weight: string;
  priority: string;
}

export interface OverrideRow extends Prices {
  model: string;
}

export interface GroupForm {
  name: string;
  platform: string;
  description: string;
  rateMultiplier: string;
  upstreamRefs: UpstreamRefRow[];
  namespaces: 'All' | 'Selector';
  /** One `key=value` per line. */
  matchLabels: string;
  /** One `key In a, b` / `key NotIn a, b` / `key Exists` / `key DoesNotExist` per line. */
  matchExpressions: string;
  /** One model glob per line; empty: every model. */
  modelsAllow: string;
  fallback: Prices;
  overrides: OverrideRow[];
  /** Sticky sessions: ClientSession (the default) or None. */
  sessionMode: 'ClientSession' | 'None';
  /** Seconds a session stays bound after its last call; empty: the default (3600). */
  sessionTtlSeconds: string;
}

export const emptyPrices = (): Prices => ({
  inputPerMTok: '',
  outputPerMTok: '',
  cacheReadPerMTok: '',
  cacheWrite5mPerMTok: '',
  cacheWrite1hPerMTok: '',
});

function pricesOf(value: unknown): Prices {
  const record = recordOf(value);
  const prices = emptyPrices();
  for (const { key } of PRICE_FIELDS) prices[key] = textOf(record[key]);
  return prices;
}

function pricesSpec(prices: Prices): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const { key } of PRICE_FIELDS) spec[key] = decimalValue(prices[key]);
  return compact(spec) ?? {};
}

function expressionText(value: unknown): string {
  const record = recordOf(value);
  const values = listOf(record.values).map(textOf);
  const operator = textOf(record.operator);
  return `${textOf(record.key)} ${operator}${values.length > 0 ? ` ${values.join(', ')}` : ''}`;
}

export function groupFormFrom(name: string, spec: Record<string, unknown> | undefined): GroupForm {
  const source = spec ?? {};
  const allowed = recordOf(source.allowedNamespaces);
  const selector = recordOf(allowed.selector);
  const pricing = recordOf(source.pricing);
  const affinity = recordOf(source.sessionAffinity);
  return {
    name,
    platform: textOf(source.platform),
    description: textOf(source.description),
    rateMultiplier: spec === undefined ? '1' : textOf(source.rateMultiplier),
    upstreamRefs: listOf(source.upstreamRefs).map((item) => {
      const ref = recordOf(item);
      return { name: textOf(ref.name), weight: textOf(ref.weight), priority: textOf(ref.priority) };
    }),
    namespaces: allowed.from === 'Selector' ? 'Selector' : 'All',
    matchLabels: Object.entries(recordOf(selector.matchLabels))
      .map(([key, value]) => `${key}=${textOf(value)}`)
      .join('\n'),
    matchExpressions: listOf(selector.matchExpressions).map(expressionText).join('\n'),
    modelsAllow: listOf(recordOf(source.models).allow).map(textOf).join('\n'),
    fallback: pricesOf(pricing.fallback),
    overrides: listOf(pricing.overrides).map((item) => ({
      model: textOf(recordOf(item).model),
      ...pricesOf(item),
    })),
    sessionMode: affinity.mode === 'None' ? 'None' : 'ClientSession',
    sessionTtlSeconds: textOf(affinity.ttlSeconds),
  };
}

function parseLabels(text: string): Record<string, string> | FormProblem {
  const labels: Record<string, string> = {};
  for (const [index, line] of linesOf(text).entries()) {
    const at = line.indexOf('=');
    if (at <= 0) {
      return {
        field: 'spec.allowedNamespaces.selector.matchLabels',
        message: `Line ${index + 1} ("${line}") is not key=value.`,
      };
    }
    labels[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return labels;
}

function parseExpressions(text: string): Record<string, unknown>[] | FormProblem {
  const expressions: Record<string, unknown>[] = [];
  for (const [index, line] of linesOf(text).entries()) {
    const withValues = /^(\S+)\s+(In|NotIn)\s+(.+)$/.exec(line);
    const bare = /^(\S+)\s+(Exists|DoesNotExist)$/.exec(line);
    if (withValues !== null) {
      expressions.push({
        key: withValues[1],
        operator: withValues[2],
        values: (withValues[3] ?? '')
          .split(',')
          .map((value) => value.trim())
          .filter((value) => value !== ''),
      });
    } else if (bare !== null) {
      expressions.push({ key: bare[1], operator: bare[2] });
    } else {
      return {
        field: 'spec.allowedNamespaces.selector.matchExpressions',
        message: `Line ${index + 1} ("${line}") is not "key In a, b", "key NotIn a, b", "key Exists" or "key DoesNotExist".`,
      };
    }
  }
  return expressions;
}

const isProblem = (value: unknown): value is FormProblem =>
  typeof value === 'object' && value !== null && 'field' in value && 'message' in value;

export function groupSpecFrom(
  form: GroupForm,
): { spec: Record<string, unknown> } | { problem: FormProblem } {
  const spec: Record<string, unknown> = {
    platform: form.platform,
    description: form.description.trim() === '' ? undefined : form.description.trim(),
    rateMultiplier: decimalValue(form.rateMultiplier),
  };
  if (form.upstreamRefs.length > 0) {
    spec.upstreamRefs = form.upstreamRefs.map((ref) =>
      compact({
        name: ref.name.trim(),
        weight: integerValue(ref.weight),
        priority: integerValue(ref.priority),
      }),
    );
  }
  if (form.namespaces === 'Selector') {
    const matchLabels = parseLabels(form.matchLabels);
    if (isProblem(matchLabels)) return { problem: matchLabels };
    const matchExpressions = parseExpressions(form.matchExpressions);
    if (isProblem(matchExpressions)) return { problem: matchExpressions };
    spec.allowedNamespaces = {
      from: 'Selector',
      selector: compact({
        matchLabels: Object.keys(matchLabels).length > 0 ? matchLabels : undefined,
        matchExpressions: matchExpressions.length > 0 ? matchExpressions : undefined,
      }),
    };
  } else {
    spec.allowedNamespaces = { from: 'All' };
  }
  const allow = linesOf(form.modelsAllow);
  if (allow.length > 0) spec.models = { allow };
  const fallback = pricesSpec(form.fallback);
  const pricing = compact(
    {
      fallback: Object.keys(fallback).length > 0 ? fallback : undefined,
      overrides:
        form.overrides.length > 0
          ? form.overrides.map((row) => ({ model: row.model.trim(), ...pricesSpec(row) }))
          : undefined,
    },
    { emptyIsAbsent: true },
  );
  if (pricing !== undefined) spec.pricing = pricing;
  // Written only when it differs from the defaults, so a Group saved unchanged keeps its spec.
  if (form.sessionMode === 'None' || form.sessionTtlSeconds.trim() !== '') {
    spec.sessionAffinity = compact({
      mode: form.sessionMode,
      ttlSeconds: integerValue(form.sessionTtlSeconds),
    });
  }
  return { spec: compact(spec) ?? {} };
}
