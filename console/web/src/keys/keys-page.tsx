/**
 * The keys of an account: search, sort, state, quota, windows, today's cost, last use. The search
 * and the sort run over every key; the table shows one page of them (100 by default). Every
 * figure of a row is read live by the server (the store's counters, the ledger's today); a note
 * says when the counters are the ApiKey status instead.
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useAccess } from '../auth/use-access.js';
import { ErrorNote } from '../ui/error-note.js';
import { UsageUnavailableNote } from '../ui/usage-unavailable.js';
import { AccountPicker } from '../ui/account-picker.js';
import { KeyRow } from './key-row.js';
import { KEY_PAGE_SIZES, keyPageOf } from './page-keys.js';
import { searchKeys, sortKeys, type SortColumn, type SortOrder } from './sort-keys.js';
import './keys-page.css';
import { keyQueries } from './key-queries.js';

const COLUMNS: { column: SortColumn; label: string }[] = [
  { column: 'name', label: 'Name' },
  { column: 'group', label: 'Group' },
  { column: 'state', label: 'State' },
  { column: 'quota', label: 'Quota' },
];
const TAIL: { column: SortColumn | null; label: string }[] = [
  { column: null, label: 'Windows' },
  { column: 'today', label: 'Today' },
  { column: 'lastUsed', label: 'Last used' },
];

const countKeys = (count: number): string => (count === 1 ? '1 key' : `${count} keys`);

/** Said above the table when the server could not read the live counters of a key. */
export const STATUS_COUNTERS_TEXT =
  "Quota, windows and last use are as the operator last recorded them (up to a minute old): the console cannot read the gateway's live counters right now.";

export function KeysPage(props: { namespace: string }) {
  const [, navigate] = useLocation();
  // Shown only when RBAC lets the user create keys here (the server refuses the others anyway).
  const mayCreate = useAccess(props.namespace)?.keys?.create === true;
  const keys = useQuery({
    ...keyQueries.list(props.namespace),
    refetchInterval: 30_000,
  });
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState<SortOrder>({ column: 'name', descending: false });
  const [pageSize, setPageSize] = useState<number>(100);
  const [pageWanted, setPageWanted] = useState(0);
  const tableTop = useRef<HTMLDivElement>(null);
  const deferredQuery = useDeferredValue(query);
  const found = useMemo(
    () => searchKeys(keys.data?.items ?? [], deferredQuery),
    [keys.data, deferredQuery],
  );
  const rows = useMemo(() => sortKeys(found, order), [found, order]);
  const shown = keyPageOf(rows.length, pageSize, pageWanted);
  const pageRows = useMemo(
    () => rows.slice(shown.start, shown.end),
    [rows, shown.start, shown.end],
  );
  const goTo = (index: number) => {
    setPageWanted(index);
    // From the pager under a long page, back up to the table's first row.
    const top = tableTop.current?.getBoundingClientRect().top ?? 0;
    if (top < 0) window.scrollBy(0, top);
  };
  const now = keys.dataUpdatedAt === 0 ? Date.now() : keys.dataUpdatedAt;
  const header = (entry: { column: SortColumn | null; label: string }) => {
    if (entry.column === null) {
      return (
        <th key={entry.label} scope="col">
          {entry.label}
        </th>
      );
    }
    const column = entry.column;
    const active = order.column === column;
    return (
      <th
        key={entry.label}
        scope="col"
        aria-sort={active ? (order.descending ? 'descending' : 'ascending') : 'none'}
      >
        <button
          type="button"
          className="sort"
          onClick={() => {
            setOrder({ column, descending: active ? !order.descending : false });
            setPageWanted(0);
          }}
        >
          {entry.label}
          <span aria-hidden="true">{active ? (order.descending ? ' ▼' : ' ▲') : ''}</span>
        </button>
      </th>
    );
  };
  return (
    <section aria-labelledby="keys-title">
      <div className="page-head">
        <h1 id="keys-title">Keys</h1>
        {mayCreate && (
          <Link className="button primary" href={`/accounts/${props.namespace}/keys/new`}>
            Create key
          </Link>
        )}
      </div>
      <div className="toolbar">
        <AccountPicker
          value={props.namespace}
          onChange={(namespace) => {
            navigate(`/accounts/${namespace}/keys`);
          }}
        />
        <label className="field search">
          Search keys
          <input
            type="search"
            value={query}
            placeholder="name, group, state…"
            onChange={(event) => {
              setQuery(event.target.value);
              setPageWanted(0);
            }}
          />
        </label>
      </div>
      {keys.error !== null && <ErrorNote error={keys.error} />}
      {keys.data === undefined && keys.error === null && <p role="status">Loading keys…</p>}
      {keys.data !== undefined && (
        <>
          {keys.data.items.some((apiKey) => apiKey.usage.ledgerUnavailable) && (
            <UsageUnavailableNote />
          )}
          {keys.data.items.some((apiKey) => apiKey.usage.countersSource === 'status') && (
            <p className="usage-unavailable" role="status">
              {STATUS_COUNTERS_TEXT}
            </p>
          )}
          <p className="count" role="status">
            {rows.length === keys.data.items.length
              ? countKeys(rows.length)
              : `${rows.length} of ${countKeys(keys.data.items.length)}`}
          </p>
          <div className="table-wrap" ref={tableTop}>
            <table className="keys">
              <caption className="visually-hidden">Keys of {props.namespace}</caption>
              <thead>
                <tr>{[...COLUMNS, ...TAIL].map(header)}</tr>
              </thead>
              <tbody>
                {pageRows.map((apiKey) => (
                  <KeyRow key={apiKey.uid} apiKey={apiKey} now={now} />
                ))}
              </tbody>
            </table>
          </div>
          {rows.length > KEY_PAGE_SIZES[0] && (
            <nav className="keys-pager" aria-label="Pages of keys">
              <button
                type="button"
                disabled={shown.index === 0}
                onClick={() => {
                  goTo(shown.index - 1);
                }}
              >
                ← Previous
              </button>
              <span>
                Page {shown.index + 1} of {shown.count} (keys {shown.start + 1}–{shown.end})
              </span>
              <button
                type="button"
                disabled={shown.index >= shown.count - 1}
                onClick={() => {
                  goTo(shown.index + 1);
                }}
              >
                Next →
              </button>
              <label className="inline-size">
                Keys per page
                <select
                  value={pageSize}
                  onChange={(event) => {
                    setPageSize(Number(event.target.value));
                    setPageWanted(0);
                  }}
                >
                  {KEY_PAGE_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
                </select>
              </label>
            </nav>
          )}
          {keys.data.items.length === 0 && (
            <p>No keys yet.{mayCreate ? ' Create the first one.' : ''}</p>
          )}
        </>
      )}
    </section>
  );
}
