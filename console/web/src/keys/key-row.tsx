/** One row of the keys table: state, quota bar, windows, today's cost, last use. */
import { memo } from 'react';
import { Link } from 'wouter';
import type { KeyView } from '../api/console-api.js';
import { formatRelative, usedFraction } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { UnavailableFigure } from '../ui/usage-unavailable.js';
import { readinessOf } from './key-readiness.js';

const WINDOWS = [
  { name: 'FiveHour', label: '5 h', limit: 'fiveHourUSD' },
  { name: 'Daily', label: 'Day', limit: 'dailyUSD' },
  { name: 'SevenDay', label: '7 d', limit: 'sevenDayUSD' },
] as const;

function UsageBar(props: { used: string | null; limit: string | null; label: string }) {
  const fraction = usedFraction(props.used, props.limit);
  return (
    <div className="usage">
      <span>
        <UsdAmount value={props.used ?? '0'} /> /{' '}
        {props.limit === null ? 'no limit' : <UsdAmount value={props.limit} />}
      </span>
      {fraction !== null && (
        <meter
          min={0}
          max={1}
          low={0.75}
          high={0.9}
          optimum={0}
          value={fraction}
          aria-label={props.label}
        />
      )}
    </div>
  );
}

export const KeyRow = memo(function KeyRow(props: { apiKey: KeyView; now: number }) {
  const { apiKey, now } = props;
  // The key page's rule: a Ready report that contradicts the state is a change being applied.
  const readiness = readinessOf(apiKey);
  return (
    <tr>
      <th scope="row">
        <Link className="key-name" href={`/accounts/${apiKey.namespace}/keys/${apiKey.name}`}>
          {apiKey.displayName}
        </Link>
        {apiKey.displayName !== apiKey.name && (
          <span className="hint object-name">{apiKey.name}</span>
        )}
        {apiKey.keyHint !== null && <code className="hint">{apiKey.keyHint}</code>}
      </th>
      <td data-label="Group">{apiKey.groupName ?? '—'}</td>
      <td data-label="State">
        <span className={`badge state-${apiKey.state}`}>{apiKey.state}</span>
        {readiness.brief !== null && (
          <span
            className="not-ready"
            title={readiness.pending ? readiness.text : (apiKey.ready.message ?? undefined)}
          >
            {readiness.brief}
          </span>
        )}
      </td>
      <td data-label="Quota">
        <UsageBar
          used={apiKey.usage.usedUSD}
          limit={apiKey.limits.quotaUSD}
          label={`Quota used by ${apiKey.displayName}`}
        />
      </td>
      <td data-label="Windows">
        <ul className="windows">
          {WINDOWS.map((window) => {
            const used = apiKey.usage.windows.find((entry) => entry.name === window.name);
            const cap = apiKey.limits[window.limit];
            return (
              <li key={window.name}>
                <span className="window-name">{window.label}</span>{' '}
                <UsdAmount value={used?.usedUSD ?? '0'} /> /{' '}
                {cap === null ? '∞' : <UsdAmount value={cap} />}
                {used?.resetTime != null && (
                  <span className="reset"> · resets {formatRelative(used.resetTime, now)}</span>
                )}
              </li>
            );
          })}
        </ul>
      </td>
      <td data-label="Today">
        {apiKey.usage.ledgerUnavailable ? (
          <UnavailableFigure />
        ) : apiKey.usage.todayCostUSD === null ? (
          '—'
        ) : (
          <UsdAmount value={apiKey.usage.todayCostUSD} />
        )}
      </td>
      <td data-label="Last used">{formatRelative(apiKey.usage.lastUsedTime, now)}</td>
    </tr>
  );
});
