/**
 * The keys of an account: search, sort, state, quota, windows, today's cost, last use. The search
 * and the sort run over every key; the table shows one page of them (100 by default). Every
 * figure of a row is read live by the server (the store's counters, the ledger's today); a note
 * says when the counters are the ApiKey status instead.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { useAccess } from '../auth/use-access.js';
import { ErrorNote } from '../ui/error-note.js';
import { UsageUnavailableNote } from '../ui/usage-unavailable.js';
import { AccountPicker } from '../ui/account-picker.js';
import { keyQueries } from './key-queries.js';
import { KeysPager } from './keys-pager.js';
import { KeysTable } from './keys-table.js';
import { KEY_PAGE_SIZES } from './page-keys.js';
import { useKeyTable } from './use-key-table.js';
import './keys-page.css';

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
  const table = useKeyTable(keys.data?.items);
  const { rows } = table;
  const now = keys.dataUpdatedAt === 0 ? Date.now() : keys.dataUpdatedAt;
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
            value={table.query}
            placeholder="name, group, state…"
            onChange={(event) => {
              table.search(event.target.value);
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
          <KeysTable namespace={props.namespace} table={table} rows={table.pageRows} now={now} />
          {rows.length > KEY_PAGE_SIZES[0] && <KeysPager table={table} />}
          {keys.data.items.length === 0 && (
            <p>No keys yet.{mayCreate ? ' Create the first one.' : ''}</p>
          )}
        </>
      )}
    </section>
  );
}
