/**
 * Ends an admitted request exactly once, however it ended (completed, failed, client gone): stops
 * lease renewal, releases the upstream slot, waits for the reply meter, bills the metered usage
 * (`billMeteredReply`) and settles through `settleRequest` (the store settles once per id), then
 * counts the settled request in the metering metrics and notes its namespace for usage retention.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PriceTable } from '../billing/load-price-table.js';
import type { UsagePruner } from '../metering/prune-usage-periodically.js';
import { observeSettledRequest, type MeteringMetrics } from '../metrics/metering-metrics.js';
import type { SpendStore } from '../store/store.js';
import { billMeteredReply } from './bill-metered-reply.js';
import type { LeaseRenewer } from './renew-leases.js';
import { requestMetering, type MeteredReply } from './request-metering.js';
import type { RequestState } from './request-state.js';
import { settleRequest } from './settle-request.js';

export interface FinishDependencies {
  store: Pick<SpendStore, 'settle' | 'releaseUpstreamSlot'>;
  renewer: LeaseRenewer;
  clock: () => number;
  timeZone: string;
  /** Settlements still running, awaited on close. */
  pending: Set<Promise<void>>;
  metrics?: MeteringMetrics;
  /** For the bounded model label: table keys are kept, anything else is `other`. */
  prices?: PriceTable;
  pruner?: UsagePruner;
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
  dependencies.renewer.remove(admitted.requestId);
  try {
    if (state.upstreamSlot !== null) {
      await dependencies.store.releaseUpstreamSlot(state.upstreamSlot, admitted.requestId);
    }
    const metering = requestMetering(state);
    const reply: MeteredReply | null = metering.reply === null ? null : await metering.reply;
    const bill = billMeteredReply({
      price: metering.price,
      reply,
      estimatedInputTokens: metering.estimatedInputTokens,
    });
    if (bill.flags.length > 0) log.debug({ flags: bill.flags }, 'metering flags');
    const now = dependencies.clock();
    await settleRequest(dependencies.store, {
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
        flags: bill.flags,
      },
    });
    dependencies.pruner?.noteNamespace(admitted.policy.namespace);
    if (dependencies.metrics !== undefined) {
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
    }
  } catch (error) {
    log.error({ err: error, requestId: admitted.requestId }, 'settlement failed');
  }
}

export function finishRequest(
  dependencies: FinishDependencies,
  state: RequestState,
  reply: { statusCode: number; log: FastifyBaseLogger },
): void {
  if (state.finished || state.admitted === null) return;
  state.finished = true;
  // Requests answered by the gateway itself (no upstream status) record the status it sent.
  if (state.outcome.status === 0) state.outcome.status = reply.statusCode;
  const log = reply.log;
  const running = finish(dependencies, state, log);
  dependencies.pending.add(running);
  void running.finally(() => dependencies.pending.delete(running));
}
