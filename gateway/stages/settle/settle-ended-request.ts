/**
 * The settle stage, run by the request's end (request-end.ts) once per admitted request: gives back
 * the upstream slot held, waits for the reply meter, bills the metered usage (`billMeteredReply`) and hands the settlement to the
 * settlement queue (settle-with-retry.ts: the store settles once per id; a store blink is
 * retried). Once the store confirms it, lease renewal stops, the request is counted in the
 * metering metrics. A captured call is handed off beside the settlement (hand-off-capture.ts).
 * Until then the lease is kept alive; if the settlement is given up, renewal
 * stops and the lease end charges the reservation as estimated.
 */
import type { FastifyBaseLogger } from 'fastify';
import { handOffCapture, type CaptureDependencies } from '../../capture/hand-off-capture.js';
import type { PriceTable } from '../../billing/load-price-table.js';
import { isTokenCountPath } from '../../billing/price-request.js';
import {
  observeSettledRequest,
  type MeteringMetrics,
  type SettledRequest,
} from '../../metrics/metering-metrics.js';
import type { SettlementRequest, SettlementResult } from '../../../store/store.js';
import { TOKEN_COUNT_FLAG } from '../../../store/usage-records.js';
import type { LeaseRenewer } from '../admit/renew-leases.js';
import { releaseUpstreamSlot, type SlotDependencies } from '../forward/hold-upstream-slot.js';
import type { RequestRecord } from '../request/request-record.js';
import type { MeteredReply } from '../reply/relay-metered-reply.js';
import { billMeteredReply } from './bill-metered-reply.js';
import { buildSettlementRequest } from './build-settlement-request.js';
import type { SettlementQueue } from './settle-with-retry.js';

export interface SettleDependencies extends SlotDependencies {
  renewer: LeaseRenewer;
  /** Settles with retries while the store is unavailable. */
  settlements: SettlementQueue;
  clock: () => number;
  metrics?: MeteringMetrics;
  /** For the bounded model label: table keys are kept, anything else is `other`. */
  prices?: PriceTable;
  /** Where captured calls go (keys with capture settings only). */
  captures?: CaptureDependencies;
}

/**
 * The request's record at its end, read after the settle stage's waits (a stage still running
 * when the response closed may write it meanwhile).
 */
export type EndedRequest = Pick<
  RequestRecord,
  'requestId' | 'admitted' | 'attempts' | 'replied' | 'gatewayStatus' | 'capturedReply' | 'trace'
>;

function modelLabel(dependencies: SettleDependencies, key: string | undefined): string {
  return key !== undefined && dependencies.prices?.entries.has(key) === true ? key : 'other';
}

/** An attempt of the call was abandoned for sending no first output in time. */
const FIRST_OUTPUT_TIMEOUT_FLAG = 'first-output-timeout';

/**
 * The record's flags: the bill's, a token count marked as one (the ledger keeps it out of the
 * request totals), and `first-output-timeout` when an attempt was abandoned for sending no first
 * output in time (the call failed over, or failed when it was the last).
 */
function recordFlags(
  flags: string[],
  call: { tokenCount: boolean; firstOutputTimeouts: number },
): string[] {
  if (!call.tokenCount && call.firstOutputTimeouts === 0) return flags;
  const all = [...flags];
  if (call.tokenCount) all.push(TOKEN_COUNT_FLAG);
  if (call.firstOutputTimeouts > 0) all.push(FIRST_OUTPUT_TIMEOUT_FLAG);
  return all;
}

/**
 * Hands the settlement to the queue; once the store confirms it, lease renewal stops and the
 * request is counted. Holds only the settlement and its metric fields while the store is awaited.
 */
async function submitSettlement(
  dependencies: SettleDependencies,
  pending: { settlement: SettlementRequest; observed: SettledRequest | null },
  log: FastifyBaseLogger,
): Promise<void> {
  const { renewer } = dependencies;
  const { settlement, observed } = pending;
  const { requestId } = settlement;
  try {
    await dependencies.settlements.submit({
      request: settlement,
      onSettled: (result: SettlementResult): void => {
        renewer.remove(requestId);
        if (!result.applied) {
          log.warn(
            { requestId },
            'already settled: the lease ended first and the reservation was charged as estimated',
          );
          return;
        }
        if (dependencies.metrics === undefined || observed === null) return;
        observeSettledRequest(dependencies.metrics, observed);
      },
      onHandedOver: () => {
        renewer.remove(requestId);
      },
    });
  } catch (error) {
    // A bug in the queue or the confirmation: the lease end charges the reservation instead
    // (the captured reply, if any, was released before the submission).
    renewer.remove(requestId);
    log.error({ err: error, requestId }, 'settlement failed');
  }
}

export async function settleEndedRequest(
  dependencies: SettleDependencies,
  ended: EndedRequest,
  log: FastifyBaseLogger,
): Promise<void> {
  const admitted = ended.admitted;
  if (admitted === null) return;
  const { renewer } = dependencies;
  const request = admitted.request;
  // The upstream slot goes back first (its one release: hold-upstream-slot.ts).
  const slotReleased = releaseUpstreamSlot(dependencies, ended, log);
  if (slotReleased !== undefined) await slotReleased;
  let pending: { settlement: SettlementRequest; observed: SettledRequest | null };
  try {
    const reply: MeteredReply | null = ended.replied === null ? null : await ended.replied.outcome;
    const attempts = ended.attempts;
    const status =
      attempts !== null && attempts.status !== 0 ? attempts.status : ended.gatewayStatus;
    const bill = billMeteredReply({
      // The serving upstream's price override, when it has one for the model.
      price: attempts?.price ?? admitted.price,
      reply,
      estimatedInputTokens: admitted.estimatedInputTokens,
    });
    if (bill.flags.length > 0) log.debug({ flags: bill.flags }, 'metering flags');
    ended.trace?.noteBill({
      usage: bill.usage,
      costNano: bill.costNano,
      responseModel: reply?.report.model ?? attempts?.upstreamModel ?? null,
      finishReasons: reply?.report.finishReasons ?? [],
    });
    const now = dependencies.clock();
    const timeToFirstByteMs = attempts?.timeToFirstByteMs ?? null;
    const settlement = buildSettlementRequest({
      admitted: request,
      now,
      outcome: {
        costNano: bill.costNano,
        usage: bill.usage,
        accuracy: bill.accuracy,
        status,
        stream: attempts?.stream ?? false,
        upstream: attempts?.upstream ?? null,
        upstreamModel: reply?.report.model ?? attempts?.upstreamModel ?? null,
        timeToFirstByteMs,
        priceVersion: bill.priceVersion,
        // A token count is marked as one: the ledger keeps it out of the request totals.
        flags: recordFlags(bill.flags, {
          tokenCount: isTokenCountPath(admitted.context.path),
          firstOutputTimeouts: attempts?.firstOutputTimeouts ?? 0,
        }),
        attempts: attempts?.count ?? 0,
      },
    });
    // What the metrics count once the store confirms, read now: the pending settlement keeps
    // these few fields, not the request (its reply, body and attempt) until the store answers.
    const observed: SettledRequest | null =
      dependencies.metrics === undefined
        ? null
        : {
            platform: request.policy.group.platform,
            group: request.policy.group.name,
            model: modelLabel(dependencies, admitted.price?.key),
            status,
            accuracy: bill.accuracy,
            durationMs: Math.max(0, now - request.admittedAt),
            timeToFirstByteMs,
            usage: bill.usage,
            costNano: bill.costNano,
          };
    if (request.policy.capture !== undefined && dependencies.captures !== undefined) {
      const streamed = attempts?.stream ?? false;
      handOffCapture(
        dependencies.captures,
        { admitted, reply: ended.capturedReply, streamed },
        log,
      );
    }
    // Read by the hand-off (or not captured after all): its bytes go back to the budget.
    ended.capturedReply?.release();
    // The reply has ended: the lease's renewals no longer read the request either.
    renewer.letGo(request.requestId);
    pending = { settlement, observed };
  } catch (error) {
    // A bug before the settlement was built: the lease end charges the reservation instead.
    renewer.remove(request.requestId);
    ended.capturedReply?.release();
    log.error({ err: error, requestId: request.requestId }, 'settlement failed');
    return;
  }
  // Returned, not awaited: this function's frame (the record and the reply) ends here, and the
  // settlement waits for the store holding only what it needs.
  return submitSettlement(dependencies, pending, log);
}
