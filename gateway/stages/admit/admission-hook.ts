/**
 * The admit stage, a preHandler, after the authorize stage (authorization-hook.ts) in the seed's
 * refusal order: body, model and its price -> one `store.admit()` (windows, quota, IP, account,
 * balance, concurrency, model; a model without a price is refused at the model rule's place). The
 * reservation is the priced estimate; token-count endpoints are free. Routes that the gateway
 * answers itself (model lists, not yet available endpoints) stop after the key checks plus the IP
 * rule. Its result, `Admitted`, goes on the request record for the forward stage.
 *
 * The body is parsed here; one over 64 KiB waits for a turn of the event loop of its own
 * (pace-large-parses.ts), so a burst of large calls does not hold every other call.
 *
 * A client that went away before admission returned is not forwarded: the request's lifecycle
 * ends here (`reply.hijack()`: Fastify then runs no route handler and sends nothing). If the store
 * admitted it meanwhile, the request's end (request-end.ts), which waited for `record.admission`,
 * settles it, releasing the reservation and the slots.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  estimateReservation,
  isTokenCountPath,
  priceRequest,
} from '../../billing/price-request.js';
import type { PriceTable } from '../../billing/load-price-table.js';
import { estimateTokensFromBytes } from '../../metering/accumulate-text.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { LeaseCharge, Store } from '../../../store/store.js';
import { admitRequest } from './admit-request.js';
import { createCalendarEnds } from '../../../store/compute-calendar-ends.js';
import { describeLeaseCharge } from './describe-lease-charge.js';
import {
  describeLeaseProgress,
  type LeaseProgressInput,
} from '../settle/describe-lease-progress.js';
import { isSourceDenied } from '../../../network/match-source-ranges.js';
import { createParsePacer, IMMEDIATE_BYTES } from './pace-large-parses.js';
import { readForwardContext } from '../../spec/read-forward-context.js';
import { readSessionIdentity } from '../../upstreams/read-session-identity.js';
import type { LeaseRef, LeaseRenewer } from './renew-leases.js';
import type { RequestRecord } from '../request/request-record.js';
import type { Admitted } from './admitted.js';
import '../request/route-config.js';

export interface AdmissionDependencies {
  store: Store;
  clock: () => number;
  leaseMs: number;
  renewer: LeaseRenewer;
  /** The price table loaded at start (shipped table plus the optional LiteLLM file). */
  prices: PriceTable;
  /** Replaces the priced reservation estimate (tests); default: `estimateReservation`. */
  estimateNano?: ((request: FastifyRequest) => number) | undefined;
  /** For the day of the estimated record charged if the lease ends unsettled (default UTC). */
  timeZone?: string;
  /** Sticky sessions: the binding TTL for groups that do not set one; 0 = off. */
  sessionTtlMs?: number;
}

/** What a lease renewal reads of an ended request: fixed once its reply has ended. */
type LeaseProgressSource = Omit<LeaseProgressInput, 'charge' | 'previousOutput'>;

/**
 * The request's progress for each lease renewal, once its reply is relayed (a reply read whole has
 * none: its lease keeps the reservation). Remembers the output of the previous renewal. `letGo`
 * (the settle stage, once the reply has ended) reads what the renewals need once and lets go of the
 * request's record: a settlement waiting for the store then keeps a few numbers alive, not the
 * whole call (its relay, request body and upstream attempt) until the store answers.
 */
function readLeaseProgress(
  record: RequestRecord,
  admitted: Admitted,
  charge: LeaseCharge,
): Pick<LeaseRef, 'progress' | 'letGo'> {
  let previousOutput = 0;
  let call: { record: RequestRecord; admitted: Admitted } | null = { record, admitted };
  let ended: LeaseProgressSource | undefined;
  const read = (): LeaseProgressSource | undefined => {
    if (call === null) return ended;
    const { replied, attempts } = call.record;
    if (replied?.delivered === undefined || attempts === null) return undefined;
    return {
      report: replied.delivered(),
      price: attempts.price ?? call.admitted.price,
      estimatedInputTokens: call.admitted.estimatedInputTokens,
      outcome: attempts,
    };
  };
  return {
    progress: () => {
      const source = read();
      if (source === undefined) return undefined;
      const progress = describeLeaseProgress({ ...source, charge, previousOutput });
      previousOutput = progress.record.usage.output;
      return progress;
    },
    letGo: () => {
      if (call === null) return;
      const source = read();
      ended =
        source === undefined
          ? undefined
          : {
              ...source,
              outcome: {
                upstream: source.outcome.upstream,
                upstreamModel: source.outcome.upstreamModel,
                timeToFirstByteMs: source.outcome.timeToFirstByteMs,
              },
            };
      call = null;
    },
  };
}

/** Read again after a wait (TypeScript keeps the earlier `record.closed` check's narrowing). */
function closedMeanwhile(record: { closed: boolean }): boolean {
  return record.closed;
}

export function createAdmissionHook(dependencies: AdmissionDependencies) {
  const pacer = createParsePacer();
  const calendarEnds = createCalendarEnds(dependencies.timeZone ?? 'UTC');
  return async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { profile, adapter } = request.routeOptions.config;
    if (profile === undefined) return;
    const record = request.tollgate;
    if (record.closed) {
      // The client left before admission began: nothing to admit, answer or settle.
      reply.hijack();
      return;
    }
    // The key checks ran before the body was read (authorization-hook.ts).
    const policy = record.authorized;
    if (policy === null) throw new GatewayError('TG_INTERNAL', { detail: 'no authorized key' });

    if (!profile.forwarded || adapter === undefined) {
      if (isSourceDenied(record.callerIp, policy.sourceRanges)) {
        throw new GatewayError('TG_SOURCE_DENIED');
      }
      return;
    }
    // A large body waits for a turn of its own: a burst of them does not hold the event loop. A
    // small one (nearly every call) is read at once, with no closure or promise.
    const bytes = Buffer.isBuffer(request.body) ? request.body.length : 0;
    const paced = bytes > IMMEDIATE_BYTES;
    const context = paced
      ? await pacer.run(bytes, () => readForwardContext(request.url, request.body))
      : readForwardContext(request.url, request.body);
    if (paced && closedMeanwhile(record)) {
      // The client left while its body waited for its turn: as above, nothing to admit.
      reply.hijack();
      return;
    }
    const model = adapter.readModel(context);
    if (model === null) {
      throw new GatewayError('TG_BAD_REQUEST', { detail: 'The request names no model.' });
    }
    const bodyBytes = context.body?.length ?? 0;
    const estimatedInputTokens = estimateTokensFromBytes(bodyBytes);
    const free = isTokenCountPath(context.path);
    const price = free
      ? null
      : priceRequest({
          model,
          platform: policy.group.platform,
          group: policy.group,
          table: dependencies.prices,
        });
    // Read once: the reservation and the lease's charge both use it.
    const outputCap = price === null ? 0 : adapter.readOutputCap(context);
    const estimateNano =
      dependencies.estimateNano?.(request) ??
      (price === null
        ? 0
        : estimateReservation({ price, bodyBytes, outputCap, platform: policy.group.platform }));
    const now = dependencies.clock();
    const sessionTtlMs = policy.group.sessionTtlMs ?? dependencies.sessionTtlMs ?? 0;
    const sessionId = sessionTtlMs > 0 ? readSessionIdentity(request.headers, context.json) : null;
    const charge = describeLeaseCharge({
      requestId: record.requestId,
      policy,
      model,
      now,
      stream: adapter.isStream(context),
      priceVersion: price?.version ?? dependencies.prices.version,
      inputTokens: estimatedInputTokens,
      outputCap,
    });
    // Kept on the record so a client that leaves meanwhile still gets its admission settled.
    record.admission = admitRequest(dependencies.store, {
      ...(sessionId === null ? {} : { session: { id: sessionId, ttlMs: sessionTtlMs } }),
      policy,
      requestId: record.requestId,
      callerIp: record.callerIp,
      model,
      estimateNano,
      now,
      leaseMs: dependencies.leaseMs,
      modelNotPriced: !free && price === null,
      charge,
      calendarEnds,
    });
    // This continuation runs before the request end's own wait on the same promise (promise
    // reactions run in order): the lease is registered before anything can settle it.
    const admitted: Admitted = {
      request: await record.admission,
      context,
      price,
      estimatedInputTokens,
    };
    record.admitted = admitted;
    dependencies.renewer.add({
      namespace: policy.namespace,
      keyUid: policy.keyUid,
      requestId: record.requestId,
      ...readLeaseProgress(record, admitted, charge),
    });
    // The client left while the store admitted it: forward nothing (the request's end settles).
    if (closedMeanwhile(record)) reply.hijack();
  };
}
