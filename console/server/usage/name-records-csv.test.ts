import { describe, expect, it } from 'vitest';
import { recordsCsvName } from './name-records-csv.js';

const NOW = Date.UTC(2026, 10, 27, 21, 5, 42);

describe('records CSV name', () => {
  it('names the namespace, key, range, model and outcome', () => {
    expect(
      recordsCsvName({
        namespace: 'team-a',
        key: 'alice',
        model: 'claude-sonnet-4-6',
        outcome: 'client_error',
        from: Date.UTC(2026, 2, 1, 9, 30),
        to: Date.UTC(2026, 2, 2),
        now: NOW,
      }),
    ).toBe(
      'tollgate-records-team-a-alice-20260301T0930Z-20260302T0000Z-claude-sonnet-4-6-client_error.csv',
    );
  });

  it('says an open start, ends an open range at the export, and defuses odd model names', () => {
    expect(recordsCsvName({ namespace: 'team-a', now: NOW })).toBe(
      'tollgate-records-team-a-start-20261127T2105Z.csv',
    );
    expect(recordsCsvName({ namespace: 'n', model: 'a/b "c"\r\n../x', now: NOW })).toBe(
      'tollgate-records-n-start-20261127T2105Z-a_b_c_.._x.csv',
    );
  });
});
