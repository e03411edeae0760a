/**
 * The account's balance (credit, spent, balance), its plan's windows when subscribed, and
 * concurrency (in flight / limit).
 */
import { useQuery } from '@tanstack/react-query';
import { UsdAmount } from '../format/usd-amount.js';
import { PlanWindowsPanel } from '../plans/plan-windows-panel.js';
import { ErrorNote } from '../ui/error-note.js';
import { usageQueries } from '../usage/usage-queries.js';

export function AccountStandingPanel(props: { namespace: string }) {
  const standing = useQuery({
    ...usageQueries.standing(props.namespace),
    refetchInterval: 10_000,
  });
  if (standing.error !== null) return <ErrorNote error={standing.error} />;
  if (standing.data === undefined) return <p role="status">Loading the balance…</p>;
  const data = standing.data;
  if (!data.hasAccount) {
    return (
      <section className="card" aria-labelledby="balance-title">
        <h2 id="balance-title">Balance</h2>
        <p className="hint">
          This namespace has no Account: the gateway refuses its keys. Ask an administrator.
        </p>
      </section>
    );
  }
  const limit = data.maxConcurrentRequests;
  const live = data.source === 'store';
  return (
    <div className="standing-column">
      <section className="card standing" aria-labelledby="balance-title">
        <h2 id="balance-title">Balance</h2>
        <dl className="figures three">
          <div>
            <dt>Spent</dt>
            <dd className="big">
              <UsdAmount value={data.spentUSD ?? '0'} />
            </dd>
          </div>
          <div>
            <dt>Credit</dt>
            <dd className="big">
              {data.creditUSD === null ? 'no limit' : <UsdAmount value={data.creditUSD} />}
            </dd>
          </div>
          <div>
            <dt>Balance</dt>
            <dd className="big">
              <UsdAmount value={data.balanceUSD} />
            </dd>
          </div>
        </dl>
        {data.spentFraction !== null && (
          <meter
            className="standing-bar"
            min={0}
            max={1}
            low={0.75}
            high={0.9}
            optimum={0}
            value={data.spentFraction}
            aria-label="Credit spent"
          />
        )}
        <p className="hint">
          {live ? (
            <>
              Live; <UsdAmount value={data.reservedUSD ?? '0'} /> held by requests in flight.
            </>
          ) : (
            "As of the operator's last report."
          )}
        </p>
      </section>
      {data.subscription !== null && (
        <PlanWindowsPanel subscription={data.subscription} now={standing.dataUpdatedAt} />
      )}
      <section className="card standing" aria-labelledby="concurrency-title">
        <h2 id="concurrency-title">Concurrency</h2>
        <p className="big" aria-label="Requests in flight">
          {data.inFlight === null ? '—' : data.inFlight} / {limit === null ? 'unlimited' : limit}
        </p>
        {limit !== null && data.inFlight !== null && (
          <meter
            className="standing-bar"
            min={0}
            max={limit}
            high={limit * 0.8}
            optimum={0}
            value={data.inFlight}
            aria-label="Concurrency used"
          />
        )}
        <p className="hint">
          {data.inFlight === null
            ? 'Requests in flight are shown when the console reads the store.'
            : 'Requests in flight now, against the account’s limit.'}
        </p>
      </section>
    </div>
  );
}
