/**
 * One administered kind as a table: its columns, "Edit" and "Delete" (with confirmation) per row
 * when RBAC allows, and "Create …". A deletion or save is announced; after a deletion the focus
 * goes to the list's heading.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { adminApi, type AdminKind, type AdminObject, type Verbs } from '../api/admin-api.js';
import { useSession } from '../auth/use-session.js';
import { ErrorNote } from '../ui/error-note.js';
import { ConfirmDelete } from './confirm-delete.js';
import { adminKeys, adminQueries } from './admin-queries.js';

export interface Column {
  label: string;
  render: (item: AdminObject) => ReactNode;
}

export function AdminList(props: {
  kind: AdminKind;
  title: string;
  /** "group", "upstream", "account". */
  noun: string;
  verbs: Verbs;
  columns: Column[];
  /** The row's name in the URL and in words (an Account: its namespace). */
  keyOf: (item: AdminObject) => string;
  deleteConsequence: string;
  empty: string;
}) {
  const client = useQueryClient();
  const { me } = useSession();
  const heading = useRef<HTMLHeadingElement>(null);
  const search = new URLSearchParams(useSearch());
  const list = useQuery({
    ...adminQueries.list(props.kind),
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      adminApi.remove({ kind: props.kind, name, csrfToken: me?.csrfToken ?? '' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: adminKeys.list(props.kind) });
      heading.current?.focus();
    },
  });
  const saved = search.get('saved') ?? search.get('created');
  const editable = props.verbs.update || props.verbs.delete;
  return (
    <section aria-labelledby={`${props.kind}-title`} className="admin-list">
      <div className="page-head">
        <h2 id={`${props.kind}-title`} ref={heading} tabIndex={-1}>
          {props.title}
        </h2>
        {props.verbs.create && (
          <Link className="button primary" href={`/${props.kind}/new`}>
            Create {props.noun}
          </Link>
        )}
      </div>
      <div aria-live="polite" className="live">
        {remove.isSuccess && (
          <p role="status" className="hint">
            Deleted {props.noun} {remove.variables}.
          </p>
        )}
        {!remove.isSuccess && saved !== null && (
          <p role="status" className="hint">
            {search.has('created') ? 'Created' : 'Saved'} {props.noun} {saved}.
          </p>
        )}
      </div>
      {remove.error !== null && <ErrorNote error={remove.error} />}
      {list.error !== null && <ErrorNote error={list.error} />}
      {list.data === undefined && list.error === null && (
        <p role="status">Loading {props.title.toLowerCase()}…</p>
      )}
      {list.data !== undefined && list.data.items.length === 0 && <p>{props.empty}</p>}
      {list.data !== undefined && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                {props.columns.map((column) => (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ))}
                {editable && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((item) => {
                const name = props.keyOf(item);
                return (
                  <tr key={item.uid}>
                    {props.columns.map((column, index) =>
                      index === 0 ? (
                        <th key={column.label} scope="row" data-label={column.label}>
                          {column.render(item)}
                        </th>
                      ) : (
                        <td key={column.label} data-label={column.label}>
                          {column.render(item)}
                        </td>
                      ),
                    )}
                    {editable && (
                      <td>
                        <div className="row-actions">
                          {props.verbs.update && (
                            <Link
                              className="button"
                              href={`/${props.kind}/${encodeURIComponent(name)}`}
                              aria-label={`Edit ${props.noun} ${name}`}
                            >
                              Edit
                            </Link>
                          )}
                          {props.verbs.delete && (
                            <ConfirmDelete
                              what={`${props.noun} ${name}`}
                              consequence={props.deleteConsequence}
                              disabled={remove.isPending}
                              onConfirm={() => {
                                remove.mutate(name);
                              }}
                            />
                          )}
                        </div>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
