/**
 * Redis key layout (docs/store.md). Everything one admission or settlement touches lives under the
 * namespace's hash tag `{ns:<namespace>}`, so it is one Redis Cluster slot and one Lua script.
 * Key policies live under their own hash tag; the digest index lives in one slot of its own.
 */
export interface NamespaceKeyNames {
  /** Prefix for names built inside Lua (`<base>kc:<keyUid>`, `<base>settled:<requestId>` ...). */
  base: string;
  accountPolicy: string;
  accountCounters: string;
  inFlight: string;
  inFlightData: string;
  /** requestId -> the estimated record charged if the lease ends unsettled. */
  inFlightCharge: string;
  records: string;
  recordData: string;
  aggregateIndex: string;
  keyCounters(keyUid: string): string;
  keyRecords(keyUid: string): string;
  settled(requestId: string): string;
  keyDaily(keyUid: string, day: string): string;
  accountDaily(day: string): string;
}

export interface RedisKeyNames {
  keyPolicy(keyHash: string): string;
  keyPolicyIndex: string;
  /** Every namespace that has had an Account (the lease sweep walks it), in one slot. */
  accountIndex: string;
  /** Held by the replica sweeping expired leases this period. */
  sweepClaim: string;
  group(name: string): string;
  upstream(name: string): string;
  upstreamSlots(name: string): string;
  namespace(namespace: string): NamespaceKeyNames;
}

export function createRedisKeyNames(prefix: string): RedisKeyNames {
  return {
    keyPolicy: (keyHash) => `${prefix}key:{${keyHash}}`,
    keyPolicyIndex: `${prefix}{keys}:digests`,
    accountIndex: `${prefix}{accounts}:namespaces`,
    sweepClaim: `${prefix}{accounts}:sweep`,
    group: (name) => `${prefix}group:{${name}}`,
    upstream: (name) => `${prefix}upstream:{${name}}`,
    upstreamSlots: (name) => `${prefix}upstream:{${name}}:slots`,
    namespace: (namespace) => namespaceKeyNames(`${prefix}{ns:${namespace}}:`),
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
    records: `${base}rec`,
    recordData: `${base}rec:data`,
    aggregateIndex: `${base}agg:index`,
    keyCounters: (keyUid) => `${base}kc:${keyUid}`,
    keyRecords: (keyUid) => `${base}rec:k:${keyUid}`,
    settled: (requestId) => `${base}settled:${requestId}`,
    keyDaily: (keyUid, day) => `${base}${keyDailySuffix(keyUid, day)}`,
    accountDaily: (day) => `${base}${accountDailySuffix(day)}`,
  };
}

/** Aggregate hashes are indexed by suffix so the prune script can rebuild their names. */
export function keyDailySuffix(keyUid: string, day: string): string {
  return `kd:${keyUid}:${day}`;
}

export function accountDailySuffix(day: string): string {
  return `ad:${day}`;
}
