/** Pure: searching and sorting the keys table. */
import type { KeyView } from '../api/console-api.js';

export type SortColumn = 'name' | 'group' | 'state' | 'quota' | 'today' | 'lastUsed';
export interface SortOrder {
  column: SortColumn;
  descending: boolean;
}

function sortValue(key: KeyView, column: SortColumn): string | number {
  switch (column) {
    case 'name':
      return key.displayName.toLowerCase();
    case 'group':
      return key.groupName ?? '';
    case 'state':
      return key.state;
    case 'quota':
      return Number(key.usage.usedUSD ?? '0');
    case 'today':
      return Number(key.usage.todayCostUSD ?? '0');
    case 'lastUsed':
      return key.usage.lastUsedTime === null ? 0 : Date.parse(key.usage.lastUsedTime);
  }
}

/** Keys whose name, display name, group, state or hint contain every word of the query. */
export function searchKeys(keys: readonly KeyView[], query: string): KeyView[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return [...keys];
  return keys.filter((key) => {
    const text = [key.name, key.displayName, key.groupName ?? '', key.state, key.keyHint ?? '']
      .join(' ')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function sortKeys(keys: readonly KeyView[], order: SortOrder): KeyView[] {
  const sign = order.descending ? -1 : 1;
  return keys
    .map((key) => ({ key, value: sortValue(key, order.column) }))
    .sort((a, b) => {
      if (a.value < b.value) return -sign;
      if (a.value > b.value) return sign;
      return a.key.name < b.key.name ? -1 : a.key.name > b.key.name ? 1 : 0;
    })
    .map((entry) => entry.key);
}
