/**
 * The keys table's state: the search (deferred while typing), the sort, the page size and the page
 * wanted; the keys found, sorted, and the page shown. A new search, sort or page size starts from
 * the first page; a page changed from the pager under a long page backs up to the table's top.
 */
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import type { KeyView } from '../api/console-api.js';
import { keyPageOf } from './page-keys.js';
import { searchKeys, sortKeys, type SortOrder } from './sort-keys.js';

export function useKeyTable(items: KeyView[] | undefined) {
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState<SortOrder>({ column: 'name', descending: false });
  const [pageSize, setPageSize] = useState<number>(100);
  const [pageWanted, setPageWanted] = useState(0);
  const tableTop = useRef<HTMLDivElement>(null);
  const deferredQuery = useDeferredValue(query);
  const found = useMemo(() => searchKeys(items ?? [], deferredQuery), [items, deferredQuery]);
  const rows = useMemo(() => sortKeys(found, order), [found, order]);
  const shown = keyPageOf(rows.length, pageSize, pageWanted);
  const pageRows = useMemo(
    () => rows.slice(shown.start, shown.end),
    [rows, shown.start, shown.end],
  );
  return {
    query,
    search: (text: string) => {
      setQuery(text);
      setPageWanted(0);
    },
    order,
    sort: (next: SortOrder) => {
      setOrder(next);
      setPageWanted(0);
    },
    pageSize,
    resize: (size: number) => {
      setPageSize(size);
      setPageWanted(0);
    },
    goTo: (index: number) => {
      setPageWanted(index);
      // From the pager under a long page, back up to the table's first row.
      const top = tableTop.current?.getBoundingClientRect().top ?? 0;
      if (top < 0) window.scrollBy(0, top);
    },
    tableTop,
    rows,
    shown,
    pageRows,
  };
}

export type KeyTable = ReturnType<typeof useKeyTable>;
