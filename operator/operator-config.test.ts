import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecretFiles } from './load-secret-files.js';
import { parseOperatorSettings } from './operator-config.js';

describe('parseOperatorSettings', () => {
  it('applies defaults', () => {
    const settings = parseOperatorSettings([], {});
    expect(settings).toMatchObject({
      namespace: 'tollgate-system',
      metricsPort: 9091,
      spendGauges: false,
      resyncSeconds: 300,
      leaseDurationSeconds: 10,
      renewIntervalSeconds: 2,
    });
  });

  it('reads the environment and lets flags win', () => {
    const settings = parseOperatorSettings(['--metrics-port=9200', '--spend-gauges'], {
      TOLLGATE_NAMESPACE: 'ops',
      REDIS_URL: 'redis://127.0.0.1:1',
      TOLLGATE_METRICS_PORT: '9100',
      TOLLGATE_PEPPER_FILE: '/p',
    });
    expect(settings).toMatchObject({
      namespace: 'ops',
      redisUrl: 'redis://127.0.0.1:1',
      metricsPort: 9200,
      spendGauges: true,
      pepperFile: '/p',
    });
  });

  it('fails fast on bad values and unknown flags', () => {
    expect(() => parseOperatorSettings(['--metrics-port', 'x'], {})).toThrow(/metricsPort/);
    expect(() => parseOperatorSettings(['--no-such-flag', '1'], {})).toThrow(/invalid/);
  });
});

describe('loadSecretFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-operator-secrets-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates 32-byte 0600 files in the data folder once, then reads the same bytes', () => {
    const first = loadSecretFiles({ dataDir: dir });
    const second = loadSecretFiles({ dataDir: dir });
    expect(first.pepper).toHaveLength(32);
    expect(first.credentialKey).toHaveLength(32);
    expect(second.pepper.equals(first.pepper)).toBe(true);
    expect(second.credentialKey.equals(first.credentialKey)).toBe(true);
    expect(statSync(join(dir, 'pepper')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'credential-key'))).toHaveLength(32);
  });

  it('reads given files and refuses a missing one without a data folder', () => {
    const keyFile = join(dir, 'key.hex');
    writeFileSync(keyFile, 'ab'.repeat(32));
    const pepperFile = join(dir, 'pepper.txt');
    writeFileSync(pepperFile, 'pepper-value');
    const loaded = loadSecretFiles({ pepperFile, credentialKeyFile: keyFile });
    expect(loaded.pepper.toString()).toBe('pepper-value');
    expect(loaded.credentialKey.equals(Buffer.alloc(32, 0xab))).toBe(true);
    expect(() => loadSecretFiles({ pepperFile })).toThrow(/credential/i);
  });
});
