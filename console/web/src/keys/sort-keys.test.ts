import { describe, expect, it } from 'vitest';
import { keyFixture } from '../../test-support/key-fixture.js';
import { searchKeys, sortKeys } from './sort-keys.js';

describe('keys table search and sort', () => {
  const keys = [keyFixture(3), keyFixture(1), keyFixture(2)];

  it('finds keys by every word of the query across name, group, state and hint', () => {
    expect(searchKeys(keys, 'openai').map((key) => key.name)).toEqual(['key-0003', 'key-0001']);
    expect(searchKeys(keys, 'OPENAI disabled').map((key) => key.name)).toEqual(['key-0003']);
    expect(searchKeys(keys, '  ')).toHaveLength(3);
    expect(searchKeys(keys, 'nothing')).toEqual([]);
  });

  it('sorts by a column both ways, ties by name', () => {
    const byName = sortKeys(keys, { column: 'name', descending: false });
    expect(byName.map((key) => key.name)).toEqual(['key-0001', 'key-0002', 'key-0003']);
    const byToday = sortKeys(keys, { column: 'today', descending: true });
    expect(byToday.map((key) => key.name)).toEqual(['key-0003', 'key-0002', 'key-0001']);
    const byGroup = sortKeys(keys, { column: 'group', descending: false });
    expect(byGroup.map((key) => key.name)).toEqual(['key-0002', 'key-0001', 'key-0003']);
  });
});
