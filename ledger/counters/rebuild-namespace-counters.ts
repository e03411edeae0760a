/**
 * What the spend counters of one namespace should hold, rebuilt from the ledger after the store
 * lost them: per key the quota used since its last reset (from `usage_quota_resets` unless the
 * caller says), the three windows, the last use and the last reset token, and the account's
 * lifetime spend (from `usage_totals`, which retention does not shrink). The recorder writes these
 * back (restore-lost-counters.ts) before the namespace's keys are served again.
 */
import { readNumber, type LedgerQueryable } from '../ledger-database.js';
import { fromMs, toMs, type SqlQuery } from '../queries/usage-sums.js';
import { replayWindows, type Charge, type ReplayedWindow } from './replay-windows.js';

export interface RebuildQuery {
  namespace: string;
  now: number;
  /**
   * Per key uid, when its quota was last reset (epoch ms); keys not listed: never. Default: the
   * latest reset of each key in `usage_quota_resets`.
   */
  quotaSince?: Readonly<Record<string, number>>;
  /**
   * Replay windows from charges at or after this time (default: everything the ledger holds). The
   * 7-day window needs history back to a moment no window was open to be exact.
   */
  historySince?: number;
}

export interface RebuiltKeyCounters {
  keyUid: string;
  usedNano: number;
  windows: ReplayedWindow[];
  lastUsedTime: number | null;
  /** Token of the key's latest quota reset in the ledger; null when none. */
  lastQuotaResetToken: string | null;
}

export interface RebuiltCounters {
  namespace: string;
  accountSpentNano: number;
  keys: RebuiltKeyCounters[];
}

export function buildQuotaUsedByKeySql(query: RebuildQuery): SqlQuery {
  return {
    text: `SELECT r.key_uid,
        coalesce(sum(r.cost_nano) FILTER (WHERE r.charged_at >= coalesce(
          ${fromMs('(q.since)')}, '-infinity'::timestamptz)), 0)::text AS used,
        ${toMs('max(r.charged_at)')} AS last_used
      FROM usage_records r
      LEFT JOIN jsonb_each_text($2::jsonb) AS q(key_uid, since) ON q.key_uid = r.key_uid
      WHERE r.namespace = $1
      GROUP BY r.key_uid ORDER BY r.key_uid`,
    values: [query.namespace, JSON.stringify(query.quotaSince ?? {})],
  };
}

export function buildChargesSql(query: RebuildQuery): SqlQuery {
  return {
    text: `SELECT key_uid, ${toMs('charged_at')} AS charged_at, cost_nano::text AS cost_nano
      FROM usage_records
      WHERE namespace = $1 AND charged_at >= ${fromMs('$2')} AND cost_nano <> 0
      ORDER BY key_uid, charged_at`,
    values: [query.namespace, query.historySince ?? 0],
  };
}

export function buildLatestResetsSql(namespace: string): SqlQuery {
  return {
    text: `SELECT DISTINCT ON (key_uid) key_uid, token, ${toMs('reset_at')} AS reset_at
      FROM usage_quota_resets WHERE namespace = $1
      ORDER BY key_uid, reset_at DESC, token DESC`,
    values: [namespace],
  };
}

interface LatestReset {
  token: string;
  time: number;
}

async function readLatestResets(
  db: LedgerQueryable,
  namespace: string,
): Promise<Map<string, LatestReset>> {
  const resets = buildLatestResetsSql(namespace);
  const rows = await db.query(resets.text, resets.values);
  return new Map(
    rows.map((row) => [
      String(row.key_uid),
      { token: String(row.token), time: readNumber(row.reset_at) },
    ]),
  );
}

export async function rebuildNamespaceCounters(
  db: LedgerQueryable,
  request: RebuildQuery,
): Promise<RebuiltCounters> {
  const resets = await readLatestResets(db, request.namespace);
  const quotaSince =
    request.quotaSince ??
    Object.fromEntries([...resets].map(([keyUid, reset]) => [keyUid, reset.time]));
  const query = { ...request, quotaSince };
  const used = buildQuotaUsedByKeySql(query);
  const charges = buildChargesSql(query);
  const [usedRows, chargeRows, totalRows] = [
    await db.query(used.text, used.values),
    await db.query(charges.text, charges.values),
    await db.query(
      'SELECT coalesce(sum(cost_nano), 0)::text AS spent FROM usage_totals WHERE namespace = $1',
      [query.namespace],
    ),
  ];
  const chargesByKey = new Map<string, Charge[]>();
  for (const row of chargeRows) {
    const keyUid = String(row.key_uid);
    const list = chargesByKey.get(keyUid) ?? [];
    list.push({ time: readNumber(row.charged_at), costNano: readNumber(row.cost_nano) });
    chargesByKey.set(keyUid, list);
  }
  const keys = usedRows.map((row): RebuiltKeyCounters => {
    const keyUid = String(row.key_uid);
    return {
      keyUid,
      usedNano: readNumber(row.used),
      windows: replayWindows(chargesByKey.get(keyUid) ?? [], query.now),
      lastUsedTime: row.last_used === null ? null : readNumber(row.last_used),
      lastQuotaResetToken: resets.get(keyUid)?.token ?? null,
    };
  });
  // Keys reset but never charged still get their reset token back.
  for (const [keyUid, reset] of resets) {
    if (keys.some((key) => key.keyUid === keyUid)) continue;
    keys.push({
      keyUid,
      usedNano: 0,
      windows: replayWindows([], query.now),
      lastUsedTime: null,
      lastQuotaResetToken: reset.token,
    });
  }
  keys.sort((left, right) =>
    left.keyUid < right.keyUid ? -1 : left.keyUid > right.keyUid ? 1 : 0,
  );
  return {
    namespace: query.namespace,
    accountSpentNano: readNumber(totalRows[0]?.spent),
    keys,
  };
}
