/**
 * Members: spend per key owner (ApiKey `spec.owner`) today, over 7 and over 30 days against the
 * Account's member limits, from the ledger. An account administrator (may update the Account) sees
 * every owner; anyone else who may read the keys sees only their own row, and the plan's windows.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { UsdAmount } from '../format/usd-amount.js';
import { levelText } from '../plans/budget-level.js';
import { PlanWindowsPanel } from '../plans/plan-windows-panel.js';
import '../plans/plans.css';
import { AccountPicker } from '../ui/account-picker.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { usageQueries } from '../usage/usage-queries.js';
import { memberQueries } from './member-queries.js';
import { memberRowsOf, usdText, type BudgetCell } from './member-rows.js';
import './members.css';

function Budget(props: { cell: BudgetCell; label: string }) {
  const { cell } = props;
  return (
    <td data-label={props.label} className={`num budget-cell level-${cell.level}`}>
      <UsdAmount value={usdText(cell.spentUSD)} />
      {cell.limitUSD !== null && (
        <>
          {' / '}
          <UsdAmount value={cell.limitUSD} />
        </>
      )}
      {cell.level !== 'ok' && <span className="level-text">{levelText(cell.level)}</span>}
    </td>
  );
}

export function MembersPage(props: { namespace: string }) {
  const [, navigate] = useLocation();
  const spend = useQuery({ ...memberQueries.spend(props.namespace), refetchInterval: 15_000 });
  const standing = useQuery({ ...usageQueries.standing(props.namespace), refetchInterval: 15_000 });
  const data = spend.data;
  const rows = data === undefined ? [] : memberRowsOf(data);
  const limits = data?.memberLimits;
  return (
    <section aria-labelledby="members-title" className="members-page">
      <div className="page-head">
        <h1 id="members-title">Members</h1>
        <AccountPicker
          value={props.namespace}
          onChange={(namespace) => {
            navigate(`/accounts/${namespace}/members`);
          }}
        />
      </div>
      <div className="members-grid">
        <section className="card" aria-labelledby="member-spend-title">
          <h2 id="member-spend-title">
            {data?.scope === 'own' ? 'Your member spend' : 'Spend per member'}
          </h2>
          {spend.error !== null ? (
            <UsageErrorNote error={spend.error} />
          ) : data === undefined ? (
            <p role="status">Loading the members…</p>
          ) : (
            <>
              <p className="hint">
                Limits per member (all keys they own):{' '}
                {(limits?.dailyUSD ?? limits?.weeklyUSD ?? limits?.monthlyUSD) ? (
                  <>
                    per day{' '}
                    {limits.dailyUSD === null ? 'none' : <UsdAmount value={limits.dailyUSD} />}, per
                    week{' '}
                    {limits.weeklyUSD === null ? 'none' : <UsdAmount value={limits.weeklyUSD} />},
                    per month{' '}
                    {limits.monthlyUSD === null ? 'none' : <UsdAmount value={limits.monthlyUSD} />}
                  </>
                ) : (
                  'none'
                )}
                . Days in {data.timeZone}.{data.scope === 'own' && ' Only your own spend is shown.'}
              </p>
              {rows.length === 0 ? (
                <p className="hint">
                  {data.scope === 'own'
                    ? `No spend by keys you own (${data.viewer}) in the last 30 days.`
                    : 'No spend by keys with an owner in the last 30 days.'}
                </p>
              ) : (
                <table className="members-table">
                  <caption className="visually-hidden">Spend per member</caption>
                  <thead>
                    <tr>
                      <th scope="col">Member</th>
                      <th scope="col" className="num">
                        Today
                      </th>
                      <th scope="col" className="num">
                        7 days
                      </th>
                      <th scope="col" className="num">
                        30 days
                      </th>
                      <th scope="col" className="num">
                        Requests (30 days)
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={row.owner}>
                        <th scope="row" data-label="Member">
                          <span>
                            {row.owner}
                            {row.you && <span className="sub"> (you)</span>}
                          </span>
                        </th>
                        <Budget cell={row.today} label="Today" />
                        <Budget cell={row.sevenDays} label="7 days" />
                        <Budget cell={row.thirtyDays} label="30 days" />
                        <td data-label="Requests (30 days)" className="num">
                          {row.requests30Days}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </section>
        {standing.data?.subscription !== null && standing.data?.subscription !== undefined && (
          <PlanWindowsPanel
            subscription={standing.data.subscription}
            now={standing.dataUpdatedAt}
          />
        )}
      </div>
    </section>
  );
}
