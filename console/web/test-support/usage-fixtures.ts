/** Test data: usage answers as the console API gives them. */
import type { TokenSums, UsageRecordRow, UsageTotals } from '../src/api/usage-api.js';

export function tokens(changes: Partial<TokenSums> = {}): TokenSums {
  return {
    inputUncached: 100,
    cacheRead: 20,
    cacheWrite5m: 5,
    cacheWrite1h: 1,
    output: 50,
    reasoning: 10,
    ...changes,
  };
}

export function totals(changes: Partial<UsageTotals> = {}): UsageTotals {
  return {
    requests: 1,
    estimatedRequests: 0,
    errorRequests: 0,
    tokens: tokens(),
    costNano: 1_000_000,
    ...changes,
  };
}

export function usageRecord(index: number, changes: Partial<UsageRecordRow> = {}): UsageRecordRow {
  return {
    requestId: `req-${index}`,
    time: Date.UTC(2026, 2, 20, 15) - index * 60_000,
    keyName: 'ci-key',
    model: 'claude-sonnet-4-6',
    upstreamModel: 'claude-sonnet-4-6',
    usage: tokens(),
    costNano: 1_500_000,
    durationMs: 1_234,
    timeToFirstByteMs: 200,
    status: 200,
    outcome: 'success',
    stream: false,
    estimated: false,
    kind: 'request',
    ...changes,
  };
}
