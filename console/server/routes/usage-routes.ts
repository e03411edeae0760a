/**
 * Usage from the ledger, per namespace, shown only to users allowed to `get` the namespace's
 * ApiKeys (SelfSubjectAccessReview as the user): key summary, account trend, model distribution,
 * top keys, records page and CSV export; and the account's standing (credit, spent, balance,
 * concurrency) from the Account and the store's live counters.
 */
import type { z } from 'zod';
import type { Account, ApiKey } from '../../../crds/schema/resources.js';
import type { LedgerQueryable } from '../../../ledger/ledger-database.js';
import {
  queryAccountTrend,
  queryModelDistribution,
} from '../../../ledger/queries/account-trend.js';
import { exportRecordsCsv } from '../../../ledger/queries/export-records-csv.js';
import { queryKeySummary } from '../../../ledger/queries/key-summary.js';
import { queryRecordsPage } from '../../../ledger/queries/records-page.js';
import { queryTopKeys } from '../../../ledger/queries/top-keys.js';
import { defineRoute, session, type ApiRoute, type RouteCall } from '../api/api-route.js';
import { startedStream } from '../api/started-stream.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError, isConsoleError } from '../console-error.js';
import type { UserKube } from '../kubernetes/user-kube.js';
import { accountStandingOf, readLiveCounters } from '../usage/account-standing.js';
import { NO_LEDGER_MESSAGE } from '../usage/guard-ledger.js';
import { quotaLimitNano, readLastQuotaReset } from '../usage/key-quota.js';
import { recordsCsvName } from '../usage/name-records-csv.js';
import {
  accountStandingSchema,
  accountTrendSchema,
  keySummaryQuerySchema,
  keySummarySchema,
  modelsSchema,
  rangeQuerySchema,
  recordsPageSchema,
  recordsQuerySchema,
  topKeysQuerySchema,
  topKeysSchema,
  type AccountTrend,
  type KeySummary,
} from '../usage/usage-schemas.js';

const DAY = 86_400_000;

async function authorizeNamespace(
  call: RouteCall<unknown, unknown>,
): Promise<{ kube: UserKube; namespace: string }> {
  const { kube } = session(call);
  const namespace = call.params.namespace ?? '';
  const allowed = await kube.can({
    verb: 'get',
    group: 'tollgate.dev',
    resource: 'apikeys',
    namespace,
  });
  if (!allowed) {
    throw new ConsoleError(
      'FORBIDDEN',
      `User "${kube.identity.username}" may not read usage in namespace "${namespace}" ` +
        '(needs get on apikeys there).',
    );
  }
  return { kube, namespace };
}

export async function authorizeUsage(
  call: RouteCall<unknown, unknown>,
  context: ConsoleContext,
): Promise<{ kube: UserKube; namespace: string; ledger: LedgerQueryable }> {
  const { kube, namespace } = await authorizeNamespace(call);
  if (context.ledger === undefined) {
    throw new ConsoleError('USAGE_UNAVAILABLE', NO_LEDGER_MESSAGE);
  }
  return { kube, namespace, ledger: context.ledger };
}

function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** A key name to its uid, read as the user (a missing key is a 404). */
async function keyUid(kube: UserKube, ref: { namespace: string; name: string }): Promise<string> {
  const key = await kube.get<ApiKey>({ kind: 'ApiKey', ...ref });
  return key.metadata.uid;
}

export function usageRoutes(context: ConsoleContext): ApiRoute[] {
  const base = '/accounts/{namespace}';
  return [
    defineRoute<undefined, z.output<typeof keySummaryQuerySchema>>({
      method: 'GET',
      path: `${base}/keys/{name}/usage`,
      summary: "A key's usage: today, the last days (default 30) with a daily breakdown, quota.",
      tag: 'Usage',
      query: keySummaryQuerySchema,
      response: keySummarySchema,
      handler: async (call): Promise<KeySummary> => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const key = await kube.get<ApiKey>({
          kind: 'ApiKey',
          namespace,
          name: call.params.name ?? '',
        });
        const keyUid = key.metadata.uid;
        const limitNano = quotaLimitNano(key.spec.limits?.quotaUSD);
        return queryKeySummary(ledger, {
          namespace,
          keyUid,
          now: context.now(),
          timeZone: context.config.timeZone,
          days: call.query.days,
          ...(limitNano === null
            ? {}
            : {
                quota: {
                  limitNano,
                  since: await readLastQuotaReset(ledger, { namespace, keyUid }),
                },
              }),
        });
      },
    }),
    defineRoute<undefined, z.output<typeof rangeQuerySchema>>({
      method: 'GET',
      path: `${base}/usage/trend`,
      summary:
        "The account's requests, tokens and cost per hour or local day of `timeZone` (default: the last 30 days).",
      tag: 'Usage',
      query: rangeQuerySchema,
      response: accountTrendSchema,
      handler: async (call): Promise<AccountTrend> => {
        const { namespace, ledger } = await authorizeUsage(call, context);
        const to = call.query.to ?? context.now();
        return {
          timeZone: context.config.timeZone,
          points: await queryAccountTrend(ledger, {
            namespace,
            from: call.query.from ?? to - 30 * DAY,
            to,
            bucket: call.query.bucket,
            timeZone: context.config.timeZone,
          }),
        };
      },
    }),
    defineRoute<undefined, z.output<typeof rangeQuerySchema>>({
      method: 'GET',
      path: `${base}/usage/models`,
      summary: 'Cost and tokens per model (the account, or one key with `key`).',
      tag: 'Usage',
      query: rangeQuerySchema,
      response: modelsSchema,
      handler: async (call) => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const to = call.query.to ?? context.now();
        const key = call.query.key;
        return {
          models: await queryModelDistribution(ledger, {
            namespace,
            from: call.query.from ?? to - 30 * DAY,
            to,
            ...(key === undefined ? {} : { keyUid: await keyUid(kube, { namespace, name: key }) }),
          }),
        };
      },
    }),
    defineRoute<undefined, z.output<typeof topKeysQuerySchema>>({
      method: 'GET',
      path: `${base}/usage/top-keys`,
      summary: "The account's keys ranked by cost (default: the last 30 days, the first 10).",
      tag: 'Usage',
      query: topKeysQuerySchema,
      response: topKeysSchema,
      handler: async (call) => {
        const { namespace, ledger } = await authorizeUsage(call, context);
        const to = call.query.to ?? context.now();
        const from = call.query.from ?? to - 30 * DAY;
        return {
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          keys: await queryTopKeys(ledger, { namespace, from, to, limit: call.query.limit }),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/usage/account`,
      summary:
        "The account's credit, spent and balance, and its requests in flight against its limit.",
      tag: 'Usage',
      response: accountStandingSchema,
      handler: async (call) => {
        const { kube, namespace } = await authorizeNamespace(call);
        const account = await kube
          .get<Account>({ kind: 'Account', namespace, name: 'default' })
          .catch((error: unknown) => {
            if (isConsoleError(error) && error.statusCode === 404) return undefined;
            throw error;
          });
        const live =
          account === undefined
            ? undefined
            : await readLiveCounters(context.store, { namespace, now: context.now() });
        return accountStandingOf(namespace, account, live);
      },
    }),
    defineRoute<undefined, z.output<typeof recordsQuerySchema>>({
      method: 'GET',
      path: `${base}/usage/records`,
      summary: 'One page of usage records, newest first (`cursor` from the previous page).',
      tag: 'Usage',
      query: recordsQuerySchema,
      response: recordsPageSchema,
      handler: async (call) => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const { key, ...rest } = call.query;
        const filter = definedOnly(rest);
        try {
          return await queryRecordsPage(ledger, {
            ...filter,
            limit: rest.limit,
            namespace,
            ...(key === undefined ? {} : { keyUid: await keyUid(kube, { namespace, name: key }) }),
          });
        } catch (error) {
          if (error instanceof RangeError) {
            throw new ConsoleError('INVALID_INPUT', 'invalid cursor', { field: 'cursor' });
          }
          throw error;
        }
      },
    }),
    defineRoute<undefined, z.output<typeof recordsQuerySchema>>({
      method: 'GET',
      path: `${base}/usage/records.csv`,
      summary:
        'The usage records as CSV (same filters as the records page, all pages), named after the ' +
        'filter: tollgate-records-<namespace>[-<key>]-<from>-<to>[-<model>][-<outcome>].csv.',
      tag: 'Usage',
      query: recordsQuerySchema,
      produces: 'text/csv',
      handler: async (call) => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const { key, from, to, model, outcome } = call.query;
        const filter = {
          namespace,
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
          ...(model === undefined ? {} : { model }),
          ...(outcome === undefined ? {} : { outcome }),
          ...(key === undefined ? {} : { keyUid: await keyUid(kube, { namespace, name: key }) }),
        };
        // The first page is read before the status is sent: an unreadable ledger is a 503 answer.
        const lines = await startedStream(exportRecordsCsv(ledger, filter));
        const name = recordsCsvName({
          namespace,
          key,
          model,
          outcome,
          from,
          to,
          now: context.now(),
        });
        return call.reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(lines);
      },
    }),
  ];
}
