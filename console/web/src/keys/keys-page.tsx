/** The keys of an account: search, sort, state, quota, windows, today's cost, last use. */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { consoleApi } from '../api/console-api.js';
import { useAccess } from '../auth/use-access.js';
import { ErrorNote } from '../shell/error-note.js';
import { AccountPicker } from './account-picker.js';
import { KeyRow } from './key-row.js';
import { searchKeys, sortKeys, type SortColumn, type SortOrder } from './sort-keys.js';

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

export function KeysPage(props: { namespace: string }) {
  const [, navigate] = useLocation();
  // Shown only when RBAC lets the user create keys here (the server refuses the others anyway).
  const mayCreate = useAccess(props.namespace)?.keys?.create === true;
  const keys = useQuery({
    queryKey: ['keys', props.namespace],
    queryFn: () => consoleApi.keys(props.namespace),
    refetchInterval: 30_000,
  });
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState<SortOrder>({ column: 'name', descending: false });
  const deferredQuery = useDeferredValue(query);
  const rows = useMemo(
    () => sortKeys(searchKeys(keys.data?.items ?? [], deferredQuery), order),
    [keys.data, deferredQuery, order],
  );
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
            }}
          />
        </label>
      </div>
      {keys.error !== null && <ErrorNote error={keys.error} />}
      {keys.data === undefined && keys.error === null && <p role="status">Loading keys…</p>}
      {keys.data !== undefined && (
        <>
          <p className="count" role="status">
            {rows.length === keys.data.items.length
              ? countKeys(rows.length)
              : `${rows.length} of ${countKeys(keys.data.items.length)}`}
          </p>
          <div className="table-wrap">
            <table className="keys">
              <caption className="visually-hidden">Keys of {props.namespace}</caption>
              <thead>
                <tr>{[...COLUMNS, ...TAIL].map(header)}</tr>
              </thead>
              <tbody>
                {rows.map((apiKey) => (
                  <KeyRow key={apiKey.uid} apiKey={apiKey} now={now} />
                ))}
              </tbody>
            </table>
          </div>
          {keys.data.items.length === 0 && (
            <p>No keys yet.{mayCreate ? ' Create the first one.' : ''}</p>
          )}
        </>
      )}
    </section>
  );
}
