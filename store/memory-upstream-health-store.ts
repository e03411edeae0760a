/** The memory store's upstream health and session bindings (rules in memory-upstream-health.ts). */
import type { MemoryState } from './memory-state.js';
import {
  claimInMaps,
  healthOf,
  reportFailureInMaps,
  sessionKey,
} from './memory-upstream-health.js';
import type { UpstreamHealth, UpstreamHealthStore } from './upstream-health.js';

type Run = <T>(operation: () => T) => Promise<T>;

/** Expired bindings are dropped when the map grows past this many. */
const SESSION_PURGE_AT = 10_000;

export function createMemoryUpstreamHealth(
  state: MemoryState,
  change: Run,
  read: Run,
): UpstreamHealthStore {
  return {
    claimUpstream: (request) =>
      change(() => {
        const slots = state.upstreamSlots.get(request.upstream) ?? new Map<string, number>();
        state.upstreamSlots.set(request.upstream, slots);
        return claimInMaps(state, slots, request);
      }),
    reportUpstreamFailure: (report) => change(() => reportFailureInMaps(state, report)),
    reportUpstreamSuccess: (upstream) => change(() => void state.upstreamHealth.delete(upstream)),
    upstreamHealth: (names, now) =>
      read(
        () =>
          new Map<string, UpstreamHealth>(
            names.map((name) => [name, healthOf(state.upstreamHealth.get(name), now)]),
          ),
      ),
    bindSession: (binding) =>
      change(() => {
        if (state.sessions.size >= SESSION_PURGE_AT) {
          for (const [key, [, end]] of state.sessions) {
            if (end <= binding.now) state.sessions.delete(key);
          }
        }
        state.sessions.set(sessionKey(binding.namespace, binding.session), [
          binding.upstream,
          binding.now + binding.ttlMs,
        ]);
      }),
  };
}
