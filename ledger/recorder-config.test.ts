import { describe, expect, it } from 'vitest';
import { parseRecorderConfig } from './recorder-config.js';

const required = { REDIS_URL: 'redis://127.0.0.1:6379', TOLLGATE_DATABASE_URL: 'postgres://db/x' };

describe('the recorder configuration', () => {
  it('paces the recorder by default and leaves its priority as started', () => {
    const config = parseRecorderConfig([], required);
    expect(config.gatherMs).toBe(200);
    expect(config.niceness).toBe(0);
  });

  it('reads both from flags or the environment', () => {
    const fromEnvironment = parseRecorderConfig([], {
      ...required,
      TOLLGATE_RECORDER_GATHER_MS: '0',
      TOLLGATE_RECORDER_NICENESS: '10',
    });
    expect([fromEnvironment.gatherMs, fromEnvironment.niceness]).toEqual([0, 10]);
    const fromFlags = parseRecorderConfig(['--gather-ms', '500', '--niceness', '19'], required);
    expect([fromFlags.gatherMs, fromFlags.niceness]).toEqual([500, 19]);
  });

  it('refuses a niceness beyond 19 or below 0', () => {
    expect(() => parseRecorderConfig(['--niceness', '20'], required)).toThrow(/niceness/);
    expect(() => parseRecorderConfig(['--niceness', '-5'], required)).toThrow(/niceness/);
  });
});
