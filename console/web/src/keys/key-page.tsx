/**
 * One key: its state and limits (quota, the 5-hour, daily and 7-day windows, expiry, client
 * addresses), why its calls are refused when an account-wide budget is used up, the actions (enable or disable, reset quota, rotate, delete; the
 * last three ask first), and its usage (today, 30 days, quota, a daily chart) with a link to its
 * records. After an action the key and its usage are read every 2 s for a while, until the
 * operator and the ledger have caught up (readiness says when the Ready report still lags).
 */
import { Link } from 'wouter';
import type { Me } from '../api/console-api.js';
import { useAccess } from '../auth/use-access.js';
import { KeyRefusalNote } from '../plans/key-refusal-note.js';
import { ErrorNote } from '../ui/error-note.js';
import { CreatedKeyValue } from './created-key-value.js';
import { KeyActionBar, KeyActionOutcome } from './key-actions.js';
import { KeyClientConfig } from './key-client-config.js';
import { KeyFigures } from './key-figures.js';
import { readinessOf } from './key-readiness.js';
import { KeyUsagePanel } from './key-usage-panel.js';
import { useKeyActions } from './use-key-actions.js';
import { useKeyReads } from './use-key-reads.js';
import { useKeyUsageChart } from './use-key-usage-chart.js';
import './key-page.css';

export function KeyPage(props: { namespace: string; name: string; me: Me }) {
  // The chart's code (Recharts) loads while the key and its usage are read, not after.
  const chart = useKeyUsageChart();
  const ref = { namespace: props.namespace, name: props.name };
  // The actions are offered only when RBAC lets the user change keys here (a viewer reads).
  const mayChange = useAccess(props.namespace)?.keys?.update === true;
  const actions = useKeyActions(ref, props.me);
  const { key, usage } = useKeyReads(ref, actions.watchUntil);
  if (actions.rotate.data !== undefined) {
    return <CreatedKeyValue created={actions.rotate.data} namespace={props.namespace} rotated />;
  }
  if (key.error !== null) return <ErrorNote error={key.error} />;
  if (key.data === undefined) return <p role="status">Loading the key…</p>;
  const apiKey = key.data;
  const now = key.dataUpdatedAt === 0 ? Date.now() : key.dataUpdatedAt;
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
      <KeyRefusalNote apiKey={apiKey} now={now} />
      <KeyFigures apiKey={apiKey} readiness={readinessOf(apiKey)} usage={usage.data} now={now} />
      {mayChange && <KeyActionBar apiKey={apiKey} keyRef={ref} actions={actions} />}
      <KeyActionOutcome actions={actions} />
      <KeyUsagePanel namespace={props.namespace} name={props.name} usage={usage} chart={chart} />
      <KeyClientConfig namespace={props.namespace} name={props.name} />
    </section>
  );
}
