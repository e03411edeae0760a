/**
 * Ends an admitted request exactly once, however it ended (completed, failed, client gone):
 * stops lease renewal, releases the upstream slot and settles through `settleRequest`.
 * Until metering exists the cost is 0 with an empty usage record (`accuracy: 'none'`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { SpendStore } from '../store/store.js';
import type { LeaseRenewer } from './renew-leases.js';
import type { RequestState } from './request-state.js';
import { EMPTY_USAGE, settleRequest } from './settle-request.js';

export interface FinishDependencies {
  store: Pick<SpendStore, 'settle' | 'releaseUpstreamSlot'>;
  renewer: LeaseRenewer;
  clock: () => number;
  timeZone: string;
  /** Settlements still running, awaited on close. */
  pending: Set<Promise<void>>;
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
    await settleRequest(dependencies.store, {
      admitted,
      now: dependencies.clock(),
      timeZone: dependencies.timeZone,
      outcome: {
        costNano: 0,
        usage: EMPTY_USAGE,
        accuracy: 'none',
        status: state.outcome.status,
        stream: state.outcome.stream,
        upstream: state.outcome.upstream,
        upstreamModel: state.outcome.upstreamModel,
        timeToFirstByteMs: state.outcome.timeToFirstByteMs,
        priceVersion: '',
        flags: [],
      },
    });
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
