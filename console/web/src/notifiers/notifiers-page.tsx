/**
 * Notifications: the Notifiers of an account (namespace) or, on the administration pages, the
 * ClusterNotifiers, each with its target, readiness, counts and delivery history (from its
 * status), and a form to create or edit one. Kubernetes RBAC decides what the user may do; a
 * refused write shows the API's message.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { listOf, recordOf, textOf } from '../admin/spec-values.js';
import { notifierApi, type NotifierScope, type NotifierView } from '../api/notifier-api.js';
import { useSession } from '../auth/use-session.js';
import { AccountPicker } from '../ui/account-picker.js';
import { ConfirmAction } from '../ui/confirm-action.js';
import { ErrorNote } from '../ui/error-note.js';
import { DeliveryHistory } from './delivery-history.js';
import { NotifierForm } from './notifier-form.js';
import { notifierKeys, notifierQueries } from './notifier-queries.js';
import './notifiers.css';

function readiness(item: NotifierView): { ready: boolean; text: string } {
  const ready = listOf(item.status?.conditions)
    .map(recordOf)
    .find((condition) => condition.type === 'Ready');
  if (ready === undefined) return { ready: false, text: 'Pending' };
  if (ready.status === 'True') return { ready: true, text: 'Ready' };
  return { ready: false, text: `${textOf(ready.reason)}: ${textOf(ready.message)}` };
}

function NotifierCard(props: { scope: NotifierScope; item: NotifierView; onEdit: () => void }) {
  const { item, scope } = props;
  const client = useQueryClient();
  const { me } = useSession();
  const remove = useMutation({
    mutationFn: () =>
      notifierApi.remove({ scope, name: item.name, csrfToken: me?.csrfToken ?? '' }),
    onSuccess: () => client.invalidateQueries({ queryKey: notifierKeys.list(scope) }),
  });
  const state = readiness(item);
  // Under the administration's own heading the levels go one down.
  const Title = scope === null ? 'h3' : 'h2';
  const Sub = scope === null ? 'h4' : 'h3';
  const target =
    item.spec.slack === undefined
      ? `Webhook ${textOf(recordOf(item.spec.webhook).url)}`
      : 'Slack incoming webhook';
  return (
    <article className="card notifier-card" aria-labelledby={`notifier-${item.name}`}>
      <div className="notifier-head">
        <Title id={`notifier-${item.name}`}>{item.name}</Title>
        <div className="actions">
          <button type="button" onClick={props.onEdit} aria-label={`Edit ${item.name}`}>
            Edit
          </button>
          <ConfirmAction
            label="Delete"
            triggerName={`Delete ${item.name}`}
            question={`Delete the notifier ${item.name}?`}
            confirmLabel="Delete"
            danger
            disabled={remove.isPending}
            onConfirm={() => {
              remove.mutate();
            }}
          />
        </div>
      </div>
      <p className="notifier-target">{target}</p>
      <p className="notifier-figures">
        <span className={state.ready ? 'ready' : 'not-ready'}>{state.text}</span>
        <span>Delivered {textOf(item.status?.delivered) || '0'}</span>
        <span>Failed {textOf(item.status?.failed) || '0'}</span>
      </p>
      {remove.error !== null && <ErrorNote error={remove.error} />}
      <Sub>Deliveries</Sub>
      <DeliveryHistory name={item.name} status={item.status} />
    </article>
  );
}

export function NotifiersPage(props: { scope: NotifierScope }) {
  const { scope } = props;
  const [, navigate] = useLocation();
  const list = useQuery({ ...notifierQueries.list(scope), refetchInterval: 10_000 });
  const [form, setForm] = useState<{ editing: NotifierView | null } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const title = scope === null ? 'Cluster notifiers' : 'Notifications';
  const Heading = scope === null ? 'h2' : 'h1';
  return (
    <section aria-labelledby="notifiers-title" className="notifiers-page">
      <div className="page-head">
        <Heading id="notifiers-title">{title}</Heading>
        {scope !== null && (
          <AccountPicker
            value={scope.namespace}
            onChange={(namespace) => {
              setForm(null);
              navigate(`/accounts/${namespace}/notifiers`);
            }}
          />
        )}
        {form === null && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setSaved(null);
              setForm({ editing: null });
            }}
          >
            New notifier
          </button>
        )}
      </div>
      <p className="hint">
        {scope === null
          ? 'Events of every namespace and of the upstreams, sent to a signed webhook or to Slack.'
          : 'Budget windows, a low balance and expiring keys of this account, sent to a signed webhook or to Slack.'}
      </p>
      <div aria-live="polite" className="live">
        {saved !== null && (
          <p role="status" className="hint">
            Saved {saved}.
          </p>
        )}
      </div>
      {form !== null && (
        <NotifierForm
          key={form.editing?.name ?? 'new'}
          scope={scope}
          editing={form.editing}
          onDone={(name) => {
            setForm(null);
            setSaved(name);
          }}
          onCancel={() => {
            setForm(null);
          }}
        />
      )}
      {list.error !== null ? (
        <ErrorNote error={list.error} />
      ) : list.data === undefined ? (
        <p role="status">Loading the notifiers…</p>
      ) : list.data.items.length === 0 ? (
        <p className="hint">No notifier yet.</p>
      ) : (
        list.data.items.map((item) => (
          <NotifierCard
            key={item.name}
            scope={scope}
            item={item}
            onEdit={() => {
              setSaved(null);
              setForm({ editing: item });
            }}
          />
        ))
      )}
    </section>
  );
}
