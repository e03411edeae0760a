/**
 * The key page's "Usage" card: today, the last 30 days, the quota and a daily cost chart, with a
 * link to the key's records; the note instead when the usage ledger cannot be read.
 */
import { Link } from 'wouter';
import { usdTextOfNano } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { ErrorNote } from '../ui/error-note.js';
import { UsageUnavailableNote } from '../ui/usage-unavailable.js';
import type { LoadedChart } from './use-key-usage-chart.js';
import type { KeyUsageRead } from './use-key-reads.js';

/** An amount of whole nano-dollars, exact on hover and focus. */
export const Usd = (props: { nano: number }) => <UsdAmount value={usdTextOfNano(props.nano)} />;
const requests = (count: number): string => (count === 1 ? '1 request' : `${count} requests`);

export function KeyUsagePanel(props: {
  namespace: string;
  name: string;
  usage: KeyUsageRead;
  chart: LoadedChart;
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
