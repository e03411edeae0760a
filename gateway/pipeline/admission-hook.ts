/**
 * THE admission pipeline, one preHandler for every Tollgate route, in the seed's refusal order:
 * key (authorizeRequest) -> body and model -> one `store.admit()` (windows, quota, IP, account,
 * balance, concurrency, model). Routes that the gateway answers itself (model lists, not yet
 * available endpoints) stop after the key checks plus the IP rule.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { Store } from '../store/store.js';
import { admitRequest } from './admit-request.js';
import { authorizeRequest } from './authorize-request.js';
import { isSourceDenied } from './match-source-ranges.js';
import { readForwardContext } from './read-forward-context.js';
import type { LeaseRenewer } from './renew-leases.js';
import './route-config.js';
import { shapeForPlatform } from './route-profile.js';

export interface AdmissionDependencies {
  store: Store;
  pepper: Buffer;
  clock: () => number;
  leaseMs: number;
  renewer: LeaseRenewer;
  /** Reservation estimate per request; 0 until metering provides one. */
  estimateNano: (request: FastifyRequest) => number;
}

export function createAdmissionHook(dependencies: AdmissionDependencies) {
  return async function admit(request: FastifyRequest): Promise<void> {
    const { profile, adapter } = request.routeOptions.config;
    if (profile === undefined) return;
    const state = request.tollgate;
    if (profile.errorShape !== 'by-platform') state.shape = profile.errorShape;
    state.platform = profile.platforms.length === 1 ? (profile.platforms[0] ?? null) : null;

    const policy = await authorizeRequest(dependencies, {
      profile,
      carrier: { headers: request.headers, query: request.query as Record<string, unknown> },
      now: dependencies.clock(),
    });
    state.key = policy;
    state.platform = policy.group.platform;
    if (profile.errorShape === 'by-platform') state.shape = shapeForPlatform(policy.group.platform);

    if (!profile.forwarded || adapter === undefined) {
      if (isSourceDenied(state.callerIp, policy.sourceRanges)) {
        throw new GatewayError('TG_SOURCE_DENIED');
      }
      return;
    }
    const context = readForwardContext(request.url, request.body);
    state.context = context;
    const model = adapter.readModel(context);
    if (model === null) {
      throw new GatewayError('TG_BAD_REQUEST', { detail: 'The request names no model.' });
    }
    const now = dependencies.clock();
    state.admitted = await admitRequest(dependencies.store, {
      policy,
      requestId: state.requestId,
      callerIp: state.callerIp,
      model,
      estimateNano: dependencies.estimateNano(request),
      now,
      leaseMs: dependencies.leaseMs,
    });
    dependencies.renewer.add({
      namespace: policy.namespace,
      keyUid: policy.keyUid,
      requestId: state.requestId,
    });
  };
}
