/** The keys table: one page of rows under headers that sort by their column when pressed. */
import type { KeyView } from '../api/console-api.js';
import { KeyRow } from './key-row.js';
import type { SortColumn } from './sort-keys.js';
import type { KeyTable } from './use-key-table.js';

const COLUMNS: { column: SortColumn | null; label: string }[] = [
  { column: 'name', label: 'Name' },
  { column: 'group', label: 'Group' },
  { column: 'state', label: 'State' },
  { column: 'quota', label: 'Quota' },
  { column: null, label: 'Windows' },
  { column: 'today', label: 'Today' },
  { column: 'lastUsed', label: 'Last used' },
];

function SortHeader(props: { entry: (typeof COLUMNS)[number]; table: KeyTable }) {
  const { entry, table } = props;
  if (entry.column === null) return <th scope="col">{entry.label}</th>;
  const column = entry.column;
  const { order } = table;
  const active = order.column === column;
  return (
    <th scope="col" aria-sort={active ? (order.descending ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="sort"
        onClick={() => {
          table.sort({ column, descending: active ? !order.descending : false });
        }}
      >
        {entry.label}
        <span aria-hidden="true">{active ? (order.descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );
}

export function KeysTable(props: {
  namespace: string;
  table: KeyTable;
  rows: KeyView[];
  now: number;
}) {
  return (
    <div className="table-wrap" ref={props.table.tableTop}>
      <table className="keys">
        <caption className="visually-hidden">Keys of {props.namespace}</caption>
        <thead>
          <tr>
            {COLUMNS.map((entry) => (
              <SortHeader key={entry.label} entry={entry} table={props.table} />
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((apiKey) => (
            <KeyRow key={apiKey.uid} apiKey={apiKey} now={props.now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
