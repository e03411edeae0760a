/**
 * The account's plan on the dashboard: the subscription's state and period, and per window its
 * spend against the cap with when it resets, marked from 80 % (warning) and at 100 % (used up:
 * the gateway refuses with TG_SUBSCRIPTION_EXHAUSTED until the reset).
 */
import type { SubscriptionStanding } from '../api/usage-api.js';
import { UsdAmount } from '../format/usd-amount.js';
import { formatRelative } from '../format/format-values.js';
import { amountOf, budgetLevel, levelText, WINDOW_LABELS } from './budget-level.js';
import './plans.css';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const STATE_TEXT: Record<string, string> = {
  Active: 'active',
  Pending: 'not started yet',
  Expired: 'ended: calls are paid from the balance, or refused without one',
  PlanNotFound: 'the plan does not exist: calls are refused',
  Unreported: 'not reported by the operator yet',
};

export function PlanWindowsPanel(props: { subscription: SubscriptionStanding; now: number }) {
  const { subscription } = props;
  const state = subscription.state ?? 'Unreported';
  return (
    <section className="card standing plan-windows" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan {subscription.planName}</h2>
      <p className="hint">
        <span className={`badge subscription-${state.toLowerCase()}`}>
          {STATE_TEXT[state] ?? state}
        </span>{' '}
        {dateFormat.format(Date.parse(subscription.startTime))}
        {subscription.endTime === null
          ? ', no end'
          : ` to ${dateFormat.format(Date.parse(subscription.endTime))}`}
      </p>
      {subscription.windows.length === 0 ? (
        <p className="hint">No window figures yet: the operator reports them within a minute.</p>
      ) : (
        <ul className="window-list">
          {subscription.windows.map((window) => {
            const cap = amountOf(window.capUSD);
            const used = Number(window.usedUSD);
            const level = budgetLevel(used, cap);
            const label = WINDOW_LABELS[window.name] ?? window.name;
            return (
              <li key={window.name} className={`window level-${level}`}>
                <div className="window-head">
                  <span className="window-name">{label}</span>
                  <span>
                    <UsdAmount value={window.usedUSD} /> / <UsdAmount value={window.capUSD} />
                  </span>
                </div>
                <meter
                  className="standing-bar"
                  min={0}
                  max={cap ?? 1}
                  low={(cap ?? 1) * 0.8}
                  high={(cap ?? 1) * 0.99}
                  optimum={0}
                  value={Math.min(used, cap ?? 1)}
                  aria-label={`${label} used`}
                />
                <p className="hint window-foot">
                  {level !== 'ok' && <strong className="level-text">{levelText(level)}</strong>}
                  {level !== 'ok' && ' · '}
                  {window.resetTime === null
                    ? 'Nothing spent in this window yet.'
                    : `Resets ${formatRelative(window.resetTime, props.now)}`}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
