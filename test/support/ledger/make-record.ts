/** Builds usage records for tests, with overridable fields and deterministic defaults. */
import type { LedgerRecord } from '../../../ledger/ledger-record.js';

export function makeRecord(overrides: Partial<LedgerRecord> & { requestId: string }): LedgerRecord {
  return {
    time: Date.UTC(2026, 0, 15, 10, 0, 0),
    namespace: 'team-a',
    accountUid: 'account-uid-a',
    keyUid: 'key-1',
    keyName: 'ci-key',
    group: 'claude',
    upstream: 'anthropic-main',
    platform: 'Anthropic',
    model: 'claude-sonnet-4-5',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    usage: {
      inputUncached: 100,
      cacheRead: 20,
      cacheWrite5m: 5,
      cacheWrite1h: 1,
      output: 50,
      reasoning: 10,
    },
    costNano: 1_000_000,
    priceVersion: '2026-01-01',
    multiplier: '1',
    durationMs: 1500,
    timeToFirstByteMs: 300,
    status: 200,
    stream: true,
    accuracy: 'exact',
    flags: [],
    ...overrides,
  };
}
