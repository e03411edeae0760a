/**
 * Ends an admitted request exactly once, however it ended (completed, failed, client gone). The one
 * trigger is the response's `close` event (`settleOnClose`, installed by the first onRequest hook):
 * Node emits it exactly once per response, after a completed reply, after an error reply (refused
 * before forwarding, or an upstream failure), and when the client goes away mid-reply. It then
 * aborts the upstream request if the reply did not finish and ends the reply meter as
 * `client-closed` unless it ended already. Settling releases the upstream slot, waits for the reply
 * meter, bills the metered usage (`billMeteredReply`) and hands the settlement to the settlement
 * queue (settle-with-retry.ts: the store settles once per id; a store blink is retried). Once the
 * store confirms it, lease renewal stops, the request is counted in the metering metrics and its
 * namespace noted for usage retention. Until then the lease is kept alive; if the settlement is
 * given up, renewal stops and the lease end charges the reservation as estimated.
 *
 * The late case: when the client goes away while admission is still running (the store's
 * admission script has not answered), `close` fires before there is anything to settle. The close
 * handler then leaves `state.settleLate`; the admission stage calls it as soon as the store has
 * admitted the request, and ends the request's lifecycle there (nothing is forwarded). The
 * settlement is the normal one (nothing billed, status 499, reservation and slots released), still
 * started by that one `close`, only deferred until there is an admitted request. Without this,
 * the admitted request would never be settled and its leases would be renewed for good.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { PriceTable } from '../../billing/load-price-table.js';
import { ERROR_CATALOGUE } from '../../errors/error-catalogue.js';
import { observeSettledRequest, type MeteringMetrics } from '../../metrics/metering-metrics.js';
import type { SettlementResult, SpendStore } from '../../../store/store.js';
import { TOKEN_COUNT_FLAG } from '../../../store/usage-records.js';
import { isTokenCountPath } from '../../billing/price-request.js';
import { billMeteredReply } from './bill-metered-reply.js';
import type { LeaseRenewer } from '../admit/renew-leases.js';
import type { MeteredReply } from '../reply/relay-metered-reply.js';
import type { RequestState } from '../request/request-state.js';
import { buildSettlementRequest } from './settle-request.js';
import type { SettlementQueue } from './settle-with-retry.js';

export interface FinishDependencies {
  store: Pick<SpendStore, 'releaseUpstreamSlot'>;
  renewer: LeaseRenewer;
  /** Settles with retries while the store is unavailable. */
  settlements: SettlementQueue;
  clock: () => number;
  timeZone: string;
  /** Finishes still running (up to the first settlement try), awaited on close. */
  pending: Set<Promise<void>>;
  metrics?: MeteringMetrics;
  /** For the bounded model label: table keys are kept, anything else is `other`. */
  prices?: PriceTable;
}

function modelLabel(dependencies: FinishDependencies, key: string | undefined): string {
  return key !== undefined && dependencies.prices?.entries.has(key) === true ? key : 'other';
}

async function finish(
  dependencies: FinishDependencies,
  state: RequestState,
  log: FastifyBaseLogger,
) {
  const admitted = state.admitted;
  if (admitted === null) return;
  const { renewer } = dependencies;
  renewer.releaseUpstreamSlot(admitted.requestId);
  if (state.upstreamSlot !== null) {
    try {
      await dependencies.store.releaseUpstreamSlot(state.upstreamSlot, admitted.requestId);
    } catch (error) {
      // The slot's own lease frees it; this must not keep the request from being settled.
      log.warn({ err: error, requestId: admitted.requestId }, 'upstream slot release failed');
    }
  }
  try {
    const metering = state.metering;
    const reply: MeteredReply | null =
      metering.relay === null ? null : await metering.relay.outcome;
    const bill = billMeteredReply({
      price: metering.price,
      reply,
      estimatedInputTokens: metering.estimatedInputTokens,
    });
    if (bill.flags.length > 0) log.debug({ flags: bill.flags }, 'metering flags');
    const now = dependencies.clock();
    const request = buildSettlementRequest({
      admitted,
      now,
      timeZone: dependencies.timeZone,
      outcome: {
        costNano: bill.costNano,
        usage: bill.usage,
        accuracy: bill.accuracy,
        status: state.outcome.status,
        stream: state.outcome.stream,
        upstream: state.outcome.upstream,
        upstreamModel: reply?.report.model ?? state.outcome.upstreamModel,
        timeToFirstByteMs: state.outcome.timeToFirstByteMs,
        priceVersion: bill.priceVersion,
        // A token count is marked as one: the ledger keeps it out of the request totals.
        flags: isTokenCountPath(state.context?.path ?? '')
          ? [...bill.flags, TOKEN_COUNT_FLAG]
          : bill.flags,
        attempts: state.outcome.attempts,
      },
    });
    const settled = (result: SettlementResult): void => {
      renewer.remove(admitted.requestId);
      if (!result.applied) {
        log.warn(
          { requestId: admitted.requestId },
          'already settled: the lease ended first and the reservation was charged as estimated',
        );
        return;
      }
      if (dependencies.metrics === undefined) return;
      observeSettledRequest(dependencies.metrics, {
        platform: admitted.policy.group.platform,
        group: admitted.policy.group.name,
        model: modelLabel(dependencies, metering.price?.key),
        status: state.outcome.status,
        accuracy: bill.accuracy,
        durationMs: Math.max(0, now - admitted.admittedAt),
        timeToFirstByteMs: state.outcome.timeToFirstByteMs,
        usage: bill.usage,
        costNano: bill.costNano,
      });
    };
    await dependencies.settlements.submit({
      request,
      onSettled: settled,
      onHandedOver: () => {
        renewer.remove(admitted.requestId);
      },
    });
  } catch (error) {
    // A bug before the settlement was built: the lease end charges the reservation instead.
    renewer.remove(admitted.requestId);
    log.error({ err: error, requestId: admitted.requestId }, 'settlement failed');
  }
}

function finishRequest(dependencies: FinishDependencies, state: RequestState, reply: FastifyReply) {
  if (state.admitted === null) return;
  // Requests answered by the gateway itself (no upstream status) record the status it sent.
  if (state.outcome.status === 0) state.outcome.status = reply.statusCode;
  const running = finish(dependencies, state, reply.log);
  dependencies.pending.add(running);
  void running.finally(() => dependencies.pending.delete(running));
}

/** Installs the request's one `close` handler: the settlement trigger (see the top of the file). */
export function settleOnClose(
  dependencies: FinishDependencies,
  state: RequestState,
  reply: FastifyReply,
): void {
  reply.raw.once('close', () => {
    state.closed = true;
    const gone = !reply.raw.writableFinished;
    if (gone) state.upstreamAbort?.abort();
    state.metering.relay?.clientClosed();
    if (state.admitted === null && gone) {
      // Admission may still be running: it calls this once admitted (the late case, see above).
      state.settleLate = () => {
        state.settleLate = null;
        state.errorCode = 'TG_CLIENT_CLOSED';
        state.outcome.status = ERROR_CATALOGUE.TG_CLIENT_CLOSED.status;
        finishRequest(dependencies, state, reply);
      };
      return;
    }
    finishRequest(dependencies, state, reply);
  });
}
