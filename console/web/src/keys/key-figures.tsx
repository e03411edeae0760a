/**
 * The key page's figures: group, value hint, Ready, quota (the ledger's figure since the last
 * reset when it has one, else the operator's), the windows, expiry and addresses, last use.
 */
import type { KeyUsage, KeyView } from '../api/console-api.js';
import { formatRelative } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { ExpiryAndAddressFigures, WindowFigures } from './key-limit-figures.js';
import { Usd } from './key-usage-panel.js';
import type { Readiness } from './key-readiness.js';

export function KeyFigures(props: {
  apiKey: KeyView;
  readiness: Readiness;
  usage: KeyUsage | 'unavailable' | undefined;
  now: number;
}) {
  const { apiKey, readiness, now } = props;
  const ledgerQuota = props.usage === 'unavailable' ? null : (props.usage?.quota ?? null);
  const quotaUsed =
    ledgerQuota === null ? (
      <UsdAmount value={apiKey.usage.usedUSD ?? '0'} />
    ) : (
      <Usd nano={ledgerQuota.usedNano} />
    );
  return (
    <dl className="figures card">
      <div>
        <dt>Group</dt>
        <dd>{apiKey.groupName ?? '—'}</dd>
      </div>
      <div>
        <dt>Owner</dt>
        <dd>{apiKey.owner ?? 'none'}</dd>
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
  );
}
