/**
 * The key page's limits beside its quota: the 5-hour, daily and 7-day windows (used, cap, when
 * the window resets), the expiry (date and how far off), and the client address lists. Each is a
 * `<div><dt/><dd/></div>` of the page's figures list.
 */
import type { KeyView } from '../api/console-api.js';
import { formatRelative } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';

const WINDOWS = [
  { name: 'FiveHour', label: '5-hour window', limit: 'fiveHourUSD' },
  { name: 'Daily', label: 'Daily window', limit: 'dailyUSD' },
  { name: 'SevenDay', label: '7-day window', limit: 'sevenDayUSD' },
] as const;
export type KeyWindow = (typeof WINDOWS)[number];

/**
 * `$0.50 of $2.50 · resets in 3 h`, `$0.50 used, no cap`, or `no cap`; a window with a cap and
 * no figure yet has used $0. Rounded amounts give their exact figure on hover and focus.
 */
export function WindowFigure(props: { apiKey: KeyView; window: KeyWindow; now: number }) {
  const cap = props.apiKey.limits[props.window.limit];
  const used = props.apiKey.usage.windows.find((entry) => entry.name === props.window.name);
  if (cap === null && used === undefined) return <>no cap</>;
  const spent = <UsdAmount value={used?.usedUSD ?? '0'} />;
  const reset = used?.resetTime ?? null;
  return (
    <>
      {spent}
      {cap === null ? (
        ' used, no cap'
      ) : (
        <>
          {' of '}
          <UsdAmount value={cap} />
        </>
      )}
      {reset !== null && ` · resets ${formatRelative(reset, props.now)}`}
    </>
  );
}

/** `1 Dec 2026, 12:00 UTC (in 4 d)`, `… (3 d ago)` once passed, or `never`. */
export function expiryText(time: string | null, now: number): string {
  if (time === null) return 'never';
  const at = new Date(time);
  if (Number.isNaN(at.getTime())) return time;
  const date = at.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return `${date} (${formatRelative(time, now)})`;
}

function AddressList(props: { addresses: readonly string[]; empty: string }) {
  if (props.addresses.length === 0) return <>{props.empty}</>;
  return (
    <ul className="address-list">
      {props.addresses.map((address) => (
        <li key={address}>
          <code>{address}</code>
        </li>
      ))}
    </ul>
  );
}

export function WindowFigures(props: { apiKey: KeyView; now: number }) {
  return (
    <>
      {WINDOWS.map((entry) => (
        <div key={entry.name}>
          <dt>{entry.label}</dt>
          <dd>
            <WindowFigure apiKey={props.apiKey} window={entry} now={props.now} />
          </dd>
        </div>
      ))}
    </>
  );
}

export function ExpiryAndAddressFigures(props: { apiKey: KeyView; now: number }) {
  const { apiKey } = props;
  return (
    <>
      <div>
        <dt>Expires</dt>
        <dd>{expiryText(apiKey.expirationTime, props.now)}</dd>
      </div>
      <div>
        <dt>Allowed addresses</dt>
        <dd>
          <AddressList addresses={apiKey.sourceRanges.allow} empty="every address" />
        </dd>
      </div>
      <div>
        <dt>Denied addresses</dt>
        <dd>
          <AddressList addresses={apiKey.sourceRanges.deny} empty="none" />
        </dd>
      </div>
    </>
  );
}
