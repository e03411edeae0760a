/** The account's keys ranked by cost over a chosen period, each linking to its page. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { totalTokens, usageApi } from '../api/usage-api.js';
import { formatCount, formatShare, usdOfNano } from '../usage/format-usage.js';
import { UsageErrorNote } from '../usage/usage-unavailable.js';

const PERIODS = [
  { days: 1, label: 'Last 24 hours' },
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
] as const;

export function TopKeysPanel(props: { namespace: string; now: number }) {
  const [days, setDays] = useState<number>(30);
  const from = new Date(props.now - days * 86_400_000).toISOString();
  const to = new Date(props.now + 60_000).toISOString();
  const top = useQuery({
    queryKey: ['top-keys', props.namespace, from, to],
    queryFn: () => usageApi.topKeys({ namespace: props.namespace, from, to, limit: 10 }),
    placeholderData: (previous) => previous,
  });
  return (
    <section className="card span-2" aria-labelledby="top-keys-title">
      <div className="card-head">
        <h2 id="top-keys-title">Top keys</h2>
        <label className="inline-field">
          Period
          <select
            value={days}
            onChange={(event) => {
              setDays(Number(event.target.value));
            }}
          >
            {PERIODS.map((period) => (
              <option key={period.days} value={period.days}>
                {period.label}
              </option>
            ))}
          </select>
        </label>
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
              {top.data.keys.map((key) => (
                <tr key={key.keyUid}>
                  <th scope="row">
                    <Link
                      href={`/accounts/${props.namespace}/keys/${encodeURIComponent(key.keyName)}`}
                    >
                      {key.keyName}
                    </Link>
                  </th>
                  <td className="num wide-only">{formatCount(key.requests)}</td>
                  <td className="num wide-only">{formatCount(totalTokens(key.tokens))}</td>
                  <td className="num">{usdOfNano(key.costNano)}</td>
                  <td>
                    <span className="share">
                      <meter
                        min={0}
                        max={1}
                        value={key.costShare}
                        aria-label={`Share of ${key.keyName}`}
                      />
                      {formatShare(key.costShare)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
