/**
 * Redis key layout (docs/store.md). Everything one admission or settlement touches lives under the
 * namespace's hash tag `{ns:<namespace>}`, so it is one Redis Cluster slot and one Lua script.
 * Key policies live under their own hash tag; the digest index lives in one slot of its own.
 */
export interface NamespaceKeyNames {
  /** Prefix for names built inside Lua (`<base>kc:<keyUid>`, `<base>settled:<requestId>` ...). */
  base: string;
  accountPolicy: string;
  /**
   * `spent`, `reserved`, `present` while the namespace's counters are whole (not flushed), and
   * `lost` once a charge has rebuilt them from nothing after a loss (counters-whole.ts).
   */
  accountCounters: string;
  inFlight: string;
  inFlightData: string;
  /** requestId -> the estimated record charged if the lease ends unsettled. */
  inFlightCharge: string;
  /** The account's stream of settled usage records (and quota resets) the recorder drains. */
  usageStream: string;
  keyCounters(keyUid: string): string;
  /** The member budget counters of one owner (budget-lua.ts). */
  memberCounters(owner: string): string;
  settled(requestId: string): string;
  /** The upstream a session is bound to (sticky sessions), by the session identity's digest. */
  session(session: string): string;
}

export interface RedisKeyNames {
  keyPolicy(keyHash: string): string;
  keyPolicyIndex: string;
  /** Every namespace that has had an Account (the lease sweep and the recorder walk it). */
  accountIndex: string;
  /**
   * Namespaces whose counters the store lost (an Account programmed before was put again without
   * them): the recorder restores them from the ledger, then removes them from this set.
   */
  restoreQueue: string;
  /** Held by the replica sweeping expired leases this period. */
  sweepClaim: string;
  /** The generation marker of the last full program of the policy cache (policy-marker-scripts.ts). */
  policyMarker: string;
  /** The full program in progress: its generation, replaced by the marker when it ends. */
  policyReload: string;
  /** The hand-off stream of captured bodies the recorder drains (capture-scripts.ts). */
  captureStream: string;
  /** The bytes of capture JSON the hand-off stream holds (capture-scripts.ts). */
  captureBytes: string;
  /** Each hand-off stream entry's bytes by its id (capture-scripts.ts). */
  captureSizes: string;
  group(name: string): string;
  upstream(name: string): string;
  upstreamSlots(name: string): string;
  /** The upstream's health hash (cool-down, circuit, probe, credential flag). */
  upstreamHealth(name: string): string;
  /** Requests started in the minute window starting at `windowStart` (requests per minute). */
  upstreamRequests(name: string, windowStart: number): string;
  namespace(namespace: string): NamespaceKeyNames;
}

/** The field of `accountCounters` that marks the namespace's counters as whole. */
export const COUNTERS_PRESENT_FIELD = 'present';

/**
 * The field of `accountCounters` a charge sets when it finds neither `present` nor any `spent`:
 * the counters were lost and the `spent` it writes is not the account's history.
 */
export const COUNTERS_LOST_FIELD = 'lost';

/**
 * The field every charge moves. Held without `present` and without `lost`, it was written by a
 * release before the `present` marker: those counters were never lost and count as whole.
 */
export const COUNTERS_SPENT_FIELD = 'spent';

/** Namespaces whose names are kept built (the cache starts over when it is full). */
const NAMESPACE_NAMES_KEPT = 4096;

export function createRedisKeyNames(prefix: string): RedisKeyNames {
  // Every admission and settlement asks for its namespace's names: built once, not per call.
  const namespaces = new Map<string, NamespaceKeyNames>();
  return {
    keyPolicy: (keyHash) => `${prefix}key:{${keyHash}}`,
    keyPolicyIndex: `${prefix}{keys}:digests`,
    accountIndex: `${prefix}{accounts}:namespaces`,
    restoreQueue: `${prefix}{accounts}:restore`,
    sweepClaim: `${prefix}{accounts}:sweep`,
    policyMarker: `${prefix}{policies}:generation`,
    policyReload: `${prefix}{policies}:reload`,
    captureStream: `${prefix}{captures}:stream`,
    captureBytes: `${prefix}{captures}:bytes`,
    captureSizes: `${prefix}{captures}:sizes`,
    group: (name) => `${prefix}group:{${name}}`,
    upstream: (name) => `${prefix}upstream:{${name}}`,
    upstreamSlots: (name) => `${prefix}upstream:{${name}}:slots`,
    upstreamHealth: (name) => `${prefix}upstream:{${name}}:health`,
    upstreamRequests: (name, windowStart) => `${prefix}upstream:{${name}}:rpm:${windowStart}`,
    namespace: (namespace) => {
      let found = namespaces.get(namespace);
      if (found === undefined) {
        if (namespaces.size >= NAMESPACE_NAMES_KEPT) namespaces.clear();
        found = namespaceKeyNames(`${prefix}{ns:${namespace}}:`);
        namespaces.set(namespace, found);
      }
      return found;
    },
  };
}

function namespaceKeyNames(base: string): NamespaceKeyNames {
  return {
    base,
    accountPolicy: `${base}account`,
    accountCounters: `${base}ac`,
    inFlight: `${base}inflight`,
    inFlightData: `${base}inflight:data`,
    inFlightCharge: `${base}inflight:charge`,
    usageStream: `${base}usage`,
    keyCounters: (keyUid) => `${base}kc:${keyUid}`,
    memberCounters: (owner) => `${base}mc:${owner}`,
    settled: (requestId) => `${base}settled:${requestId}`,
    session: (session) => `${base}session:${session}`,
  };
}
