/**
 * One key: its state and limits (quota, the 5-hour, daily and 7-day windows, expiry, client
 * addresses), the actions (enable or disable, reset quota, rotate, delete; the
 * last three ask first), and its usage (today, 30 days, quota, a daily chart) with a link to its
 * records. After an action the key and its usage are read every 2 s for a while, until the
 * operator and the ledger have caught up (readiness says when the Ready report still lags).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { consoleApi, type KeyAction, type Me } from '../api/console-api.js';
import { useAccess } from '../auth/use-access.js';
import { formatRelative, usdTextOfNano } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { ErrorNote } from '../ui/error-note.js';
import { orUnavailable, UsageUnavailableNote } from '../ui/usage-unavailable.js';
import { ConfirmAction } from '../ui/confirm-action.js';
import { CreatedKeyValue } from './created-key-value.js';
import { ExpiryAndAddressFigures, WindowFigures } from './key-limit-figures.js';
import { readinessOf } from './key-readiness.js';
import { UseKeyPanel } from './use-key-panel.js';
import './key-page.css';

const loadKeyUsageChart = () => import('./key-usage-chart.js');
type KeyUsageChart = Awaited<ReturnType<typeof loadKeyUsageChart>>['default'];

/**
 * The chart's code (Recharts), loaded when the page opens, while the key and its usage are read.
 * Not React.lazy: a lazy component suspends on its first render even when its code has arrived,
 * and React then holds the revealed chart back for 300 ms.
 */
function useKeyUsageChart(): { Chart: KeyUsageChart | null; failed: boolean } {
  const [loaded, setLoaded] = useState<{ Chart: KeyUsageChart | null; failed: boolean }>({
    Chart: null,
    failed: false,
  });
  useEffect(() => {
    let current = true;
    loadKeyUsageChart().then(
      (module) => {
        if (current) setLoaded({ Chart: module.default, failed: false });
      },
      () => {
        if (current) setLoaded({ Chart: null, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return loaded;
}

/** An amount of whole nano-dollars, exact on hover and focus. */
const Usd = (props: { nano: number }) => <UsdAmount value={usdTextOfNano(props.nano)} />;
const requests = (count: number): string => (count === 1 ? '1 request' : `${count} requests`);
/** How long the page reads the key and its usage often after an action. */
const WATCH_MS = 30_000;
const DONE: Record<KeyAction, string> = {
  enable: 'Done: the key is enabled.',
  disable: 'Done: the key is disabled.',
  'reset-quota': 'Done: the used quota starts again from $0.',
};

/** The key's client configuration with the placeholder for the value (never read back). */
function KeyClientConfig(props: { namespace: string; name: string }) {
  const config = useQuery({
    queryKey: ['client-config', props.namespace, props.name],
    queryFn: () => consoleApi.clientConfig(props),
    retry: false,
  });
  if (config.error !== null) return <ErrorNote error={config.error} />;
  if (config.data === undefined) return null;
  return <UseKeyPanel config={config.data} />;
}

/**
 * The key's usage summary, read with the key (not after it). Read again whenever the page opens
 * (an edit may have changed the quota it reports), every 2 s while `watching` after an action.
 */
function useKeyUsage(ref: { namespace: string; name: string }, watching: () => boolean) {
  return useQuery({
    queryKey: ['key-usage', ref.namespace, ref.name],
    queryFn: () => orUnavailable(consoleApi.keyUsage(ref)),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    refetchInterval: () => (watching() ? 2_000 : 60_000),
  });
}

function KeyUsagePanel(props: {
  namespace: string;
  name: string;
  usage: ReturnType<typeof useKeyUsage>;
  chart: ReturnType<typeof useKeyUsageChart>;
}) {
  const { usage, chart } = props;
  if (usage.data === 'unavailable') {
    return (
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <UsageUnavailableNote />
      </section>
    );
  }
  if (usage.error !== null) return <ErrorNote error={usage.error} />;
  if (usage.data === undefined) return <p role="status">Loading usage…</p>;
  const { today, lastDays, quota } = usage.data;
  return (
    <section className="card" aria-labelledby="usage-title">
      <div className="card-head-row">
        <h2 id="usage-title">Usage</h2>
        <Link href={`/accounts/${props.namespace}/keys/${encodeURIComponent(props.name)}/records`}>
          Usage records
        </Link>
      </div>
      <dl className="figures">
        <div>
          <dt>Today</dt>
          <dd>
            <Usd nano={today.costNano} /> · {requests(today.requests)}
          </dd>
        </div>
        <div>
          <dt>Last 30 days</dt>
          <dd>
            <Usd nano={lastDays.costNano} /> · {requests(lastDays.requests)}
          </dd>
        </div>
        <div>
          <dt>Quota</dt>
          <dd>
            {quota === null ? (
              'no quota'
            ) : (
              <>
                <Usd nano={quota.usedNano} /> of <Usd nano={quota.limitNano} /> (
                <Usd nano={quota.remainingNano} /> left)
              </>
            )}
          </dd>
        </div>
      </dl>
      {chart.Chart !== null ? (
        <chart.Chart usage={usage.data} />
      ) : chart.failed ? (
        <p role="alert">The chart could not be loaded: reload the page to try again.</p>
      ) : (
        <p role="status">Loading the chart…</p>
      )}
    </section>
  );
}

export function KeyPage(props: { namespace: string; name: string; me: Me }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  // The chart's code (Recharts) loads while the key and its usage are read, not after.
  const chart = useKeyUsageChart();
  const ref = { namespace: props.namespace, name: props.name };
  // The actions are offered only when RBAC lets the user change keys here (a viewer reads).
  const mayChange = useAccess(props.namespace)?.keys?.update === true;
  // After an action, until this time, the key and its usage are read every 2 s.
  const [watchUntil, setWatchUntil] = useState(0);
  const watching = () => Date.now() < watchUntil;
  const usage = useKeyUsage(ref, watching);
  const key = useQuery({
    queryKey: ['key', props.namespace, props.name],
    queryFn: () => consoleApi.key(ref),
    // Until the operator reports the key ready (after a create, enable or rotate), ask often.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data === undefined || watching() || readinessOf(data).pending) return 2_000;
      return data.ready.status === 'True' ? 30_000 : 3_000;
    },
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['keys', props.namespace] });
  const action = useMutation({
    mutationFn: (kind: KeyAction) =>
      consoleApi.keyAction({ ...ref, action: kind, csrfToken: props.me.csrfToken }),
    onSuccess: async (updated) => {
      client.setQueryData(['key', props.namespace, props.name], updated);
      setWatchUntil(Date.now() + WATCH_MS);
      await Promise.all([
        refresh(),
        client.invalidateQueries({ queryKey: ['key-usage', props.namespace, props.name] }),
      ]);
    },
  });
  const rotate = useMutation({
    mutationFn: () => consoleApi.rotateKey({ ...ref, csrfToken: props.me.csrfToken }),
    onSuccess: async (rotated) => {
      // The rotated key (a new spec generation), for the pages opened next.
      client.setQueryData(['key', props.namespace, props.name], rotated.key);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => consoleApi.deleteKey({ ...ref, csrfToken: props.me.csrfToken }),
    onSuccess: async () => {
      await refresh();
      navigate(`/accounts/${props.namespace}/keys`);
    },
  });
  if (rotate.data !== undefined) {
    return <CreatedKeyValue created={rotate.data} namespace={props.namespace} rotated />;
  }
  if (key.error !== null) return <ErrorNote error={key.error} />;
  if (key.data === undefined) return <p role="status">Loading the key…</p>;
  const apiKey = key.data;
  const readiness = readinessOf(apiKey);
  // The ledger's figure since the last reset when it has one (the usage card shows the same);
  // else what the operator last reported in the key's status.
  const ledgerQuota = usage.data === 'unavailable' ? null : (usage.data?.quota ?? null);
  const quotaUsed =
    ledgerQuota === null ? (
      <UsdAmount value={apiKey.usage.usedUSD ?? '0'} />
    ) : (
      <Usd nano={ledgerQuota.usedNano} />
    );
  const now = key.dataUpdatedAt === 0 ? Date.now() : key.dataUpdatedAt;
  const busy = action.isPending || rotate.isPending || remove.isPending;
  const actionError = action.error ?? rotate.error ?? remove.error;
  return (
    <section aria-labelledby="key-title" className="key-page">
      <p>
        <Link href={`/accounts/${props.namespace}/keys`}>← Keys</Link>
      </p>
      <div className="page-head">
        <h1 id="key-title">{apiKey.displayName}</h1>
        <span className={`badge state-${apiKey.state}`}>{apiKey.state}</span>
      </div>
      {apiKey.displayName !== apiKey.name && (
        <p className="hint object-name" aria-label="Object name">
          {apiKey.name}
        </p>
      )}
      <dl className="figures card">
        <div>
          <dt>Group</dt>
          <dd>{apiKey.groupName ?? '—'}</dd>
        </div>
        <div>
          <dt>Value</dt>
          <dd>
            <code>{apiKey.keyHint ?? '—'}</code>
          </dd>
        </div>
        <div>
          <dt>Ready</dt>
          <dd className={readiness.pending ? 'pending' : undefined}>{readiness.text}</dd>
        </div>
        <div>
          <dt>Quota</dt>
          <dd>
            {quotaUsed} /{' '}
            {apiKey.limits.quotaUSD === null ? (
              'no limit'
            ) : (
              <UsdAmount value={apiKey.limits.quotaUSD} />
            )}
          </dd>
        </div>
        <WindowFigures apiKey={apiKey} now={now} />
        <ExpiryAndAddressFigures apiKey={apiKey} now={now} />
        <div>
          <dt>Last used</dt>
          <dd>{formatRelative(apiKey.usage.lastUsedTime, now)}</dd>
        </div>
      </dl>
      {mayChange && (
        <div className="actions key-actions">
          <Link className="button" href={`/accounts/${props.namespace}/keys/${props.name}/edit`}>
            Edit
          </Link>
          {apiKey.state === 'disabled' ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                action.mutate('enable');
              }}
            >
              Enable
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                action.mutate('disable');
              }}
            >
              Disable
            </button>
          )}
          <ConfirmAction
            label="Reset quota"
            question={`Start the used quota of ${apiKey.displayName} again from $0?`}
            confirmLabel="Reset the quota"
            disabled={busy}
            onConfirm={() => {
              action.mutate('reset-quota');
            }}
          />
          <ConfirmAction
            label="Rotate"
            question="Make a new value? The current one stops working within moments."
            confirmLabel="Rotate the value"
            disabled={busy}
            onConfirm={() => {
              rotate.mutate();
            }}
          />
          <ConfirmAction
            label="Delete"
            question={`Delete ${apiKey.displayName}? Clients using it are refused at once.`}
            confirmLabel="Delete the key"
            danger
            disabled={busy}
            onConfirm={() => {
              remove.mutate();
            }}
          />
        </div>
      )}
      {actionError !== null && <ErrorNote error={actionError} />}
      {action.isSuccess && (
        <p role="status" className="hint">
          {DONE[action.variables]}
        </p>
      )}
      <KeyUsagePanel namespace={props.namespace} name={props.name} usage={usage} chart={chart} />
      <KeyClientConfig namespace={props.namespace} name={props.name} />
    </section>
  );
}
