/** The account's keys ranked by cost over the dashboard's period, each linking to its page. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { totalTokens } from '../api/usage-api.js';
import { usdTextOfNano } from '../format/format-usd.js';
import { UsdAmount } from '../format/usd-amount.js';
import { formatCount, formatShare } from '../format/format-usage.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { keyQueries } from '../keys/key-queries.js';
import { usageQueries } from '../usage/usage-queries.js';

export function TopKeysPanel(props: {
  namespace: string;
  /** The dashboard's range (ISO times), the same as the trend's and the models'. */
  range: { from: string; to: string };
  period: string;
}) {
  const { from, to } = props.range;
  const top = useQuery({
    ...usageQueries.topKeys(props.namespace, { from, to }),
    placeholderData: (previous) => previous,
  });
  // The keys' labels, from the keys page's own query; without it (not allowed, not yet read, a
  // deleted key) a key reads by its object name.
  const keys = useQuery({
    ...keyQueries.list(props.namespace),
    retry: false,
  });
  const labels = new Map(keys.data?.items.map((key) => [key.uid, key.displayName]));
  return (
    <section className="card span-2" aria-labelledby="top-keys-title">
      <div className="card-head">
        <h2 id="top-keys-title">Top keys</h2>
        <p className="hint">{props.period}</p>
      </div>
      <UsageErrorNote error={top.error} />
      {top.data === undefined && top.error === null && <p role="status">Loading top keys…</p>}
      {top.data !== undefined && top.data.keys.length === 0 && (
        <p className="hint">No usage in this period.</p>
      )}
      {top.data !== undefined && top.data.keys.length > 0 && (
        <div className="table-scroll">
          <table className="usage-table">
            <caption className="visually-hidden">Top keys by cost</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col" className="num wide-only">
                  Requests
                </th>
                <th scope="col" className="num wide-only">
                  Tokens
                </th>
                <th scope="col" className="num">
                  Cost
                </th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {top.data.keys.map((key) => {
                const label = labels.get(key.keyUid) ?? key.keyName;
                return (
                  <tr key={key.keyUid}>
                    <th scope="row">
                      <Link
                        href={`/accounts/${props.namespace}/keys/${encodeURIComponent(key.keyName)}`}
                      >
                        {label}
                      </Link>
                      {label !== key.keyName && (
                        <span className="hint object-name">{key.keyName}</span>
                      )}
                    </th>
                    <td className="num wide-only">{formatCount(key.requests)}</td>
                    <td className="num wide-only">{formatCount(totalTokens(key.tokens))}</td>
                    <td className="num">
                      <UsdAmount value={usdTextOfNano(key.costNano)} />
                    </td>
                    <td>
                      <span className="share">
                        <meter
                          min={0}
                          max={1}
                          value={key.costShare}
                          aria-label={`Share of ${label}`}
                        />
                        {formatShare(key.costShare)}
                      </span>
                    </td>
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
