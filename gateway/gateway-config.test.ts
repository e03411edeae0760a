import { describe, expect, it } from 'vitest';
import { parseGatewaySettings } from './gateway-config.js';

describe('parseGatewaySettings', () => {
  it('uses defaults', () => {
    const settings = parseGatewaySettings([], {});
    expect(settings.port).toBe(8080);
    expect(settings.trustedProxies).toEqual([]);
    expect(settings.timeZone).toBe('UTC');
  });

  it('reads TOLLGATE_* and lets flags win', () => {
    const settings = parseGatewaySettings(['--port', '9000', '--headers-timeout-ms=1500'], {
      TOLLGATE_PORT: '7000',
      TOLLGATE_TRUSTED_PROXIES: '10.0.0.0/8, ::1',
      TOLLGATE_LEASE_MS: '5000',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(settings.port).toBe(9000);
    expect(settings.headersTimeoutMs).toBe(1500);
    expect(settings.leaseMs).toBe(5000);
    expect(settings.trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    expect(settings.redisUrl).toBe('redis://127.0.0.1:1');
  });

  it('takes the first-output timeout (off by default, 0 allowed, bounded)', () => {
    expect(parseGatewaySettings([], {}).firstOutputTimeoutMs).toBe(0);
    const flag = parseGatewaySettings(['--first-output-timeout-ms', '45000'], {
      TOLLGATE_FIRST_OUTPUT_TIMEOUT_MS: '1000',
    });
    expect(flag.firstOutputTimeoutMs).toBe(45_000);
    expect(
      parseGatewaySettings([], { TOLLGATE_FIRST_OUTPUT_TIMEOUT_MS: '0' }).firstOutputTimeoutMs,
    ).toBe(0);
    expect(() => parseGatewaySettings(['--first-output-timeout-ms', '-1'], {})).toThrow();
    expect(() => parseGatewaySettings(['--first-output-timeout-ms', '3600001'], {})).toThrow();
  });

  it('reads the cloud provider endpoints once from their standard variables', () => {
    expect(parseGatewaySettings([], {}).providerEndpoints).toEqual({
      awsSts: null,
      gceMetadata: null,
      azureAuthority: null,
    });
    const settings = parseGatewaySettings([], {
      AWS_ENDPOINT_URL_STS: 'http://127.0.0.1:4566/',
      GCE_METADATA_HOST: '127.0.0.1:8181',
      AZURE_AUTHORITY_HOST: 'https://login.example.test',
    });
    expect(settings.providerEndpoints).toEqual({
      awsSts: 'http://127.0.0.1:4566',
      gceMetadata: '127.0.0.1:8181',
      azureAuthority: 'https://login.example.test',
    });
    expect(() => parseGatewaySettings([], { AZURE_AUTHORITY_HOST: 'login.example' })).toThrow(
      'AZURE_AUTHORITY_HOST must be an http(s) URL',
    );
  });

  it('fails fast on bad values and unknown flags', () => {
    expect(() => parseGatewaySettings(['--port', 'x'], {})).toThrow(
      /invalid gateway configuration/,
    );
    expect(() => parseGatewaySettings([], { TOLLGATE_TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow();
    expect(() => parseGatewaySettings(['--nope', '1'], {})).toThrow(/unknown flag/);
    expect(() => parseGatewaySettings([], { TOLLGATE_TIME_ZONE: 'Mars/Base' })).toThrow();
  });
});
