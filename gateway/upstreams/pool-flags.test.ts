import { describe, expect, it } from 'vitest';
import { parseGatewaySettings } from '../gateway-config.js';

describe('the pool flags', () => {
  it('parse from flags and the environment, 0 turning sticky sessions off', () => {
    const settings = parseGatewaySettings(
      ['--upstream-max-attempts', '2', '--sticky-session-ttl-ms=0'],
      { TOLLGATE_UPSTREAM_FAILOVER_DEADLINE_MS: '1500' },
    );
    expect(settings).toMatchObject({
      upstreamMaxAttempts: 2,
      upstreamFailoverDeadlineMs: 1500,
      stickySessionTtlMs: 0,
      upstreamFailureThreshold: 3,
      upstreamCooldownBaseMs: 5_000,
      upstreamCooldownMaxMs: 300_000,
      upstreamProbeLeaseMs: 30_000,
    });
    expect(() => parseGatewaySettings(['--upstream-max-attempts', '0'], {})).toThrow();
    expect(parseGatewaySettings([], {}).upstreamClaimCacheMs).toBe(500);
    expect(parseGatewaySettings(['--upstream-claim-cache-ms', '0'], {}).upstreamClaimCacheMs).toBe(
      0,
    );
    expect(() => parseGatewaySettings(['--upstream-claim-cache-ms', '5000'], {})).toThrow();
  });
});
