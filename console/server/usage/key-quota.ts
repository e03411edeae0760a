/**
 * A key's quota for its usage summary: the limit from `spec.limits.quotaUSD` (absent or 0: no
 * quota) and the time of its last reset from the ledger (0 when never reset).
 */
import type { LedgerQueryable } from '../../../ledger/ledger-database.js';
import { MONEY } from '../keys/key-schemas.js';

/** Pure: a USD amount (up to 6 decimals) in nano-USD; null when absent, zero or malformed. */
export function quotaLimitNano(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const text = String(value);
  if (!MONEY.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const nano = Number(whole) * 1_000_000_000 + Number(fraction.padEnd(9, '0'));
  return nano > 0 ? nano : null;
}

/** Epoch ms of the key's latest quota reset recorded in the ledger; 0 when none. */
export async function readLastQuotaReset(
  ledger: LedgerQueryable,
  key: { namespace: string; keyUid: string },
): Promise<number> {
  const rows = await ledger.query(
    `SELECT (extract(epoch FROM max(reset_at)) * 1000)::bigint::text AS since
     FROM usage_quota_resets WHERE namespace = $1 AND key_uid = $2`,
    [key.namespace, key.keyUid],
  );
  const since = rows[0]?.since;
  return typeof since === 'string' ? Number(since) : 0;
}
