import { describe, expect, it } from 'vitest';
import { HEALTHY } from '../../store/upstream-health.js';
import { projectUpstreamAvailability } from './project-upstream-availability.js';

const until = Date.parse('2026-11-24T10:00:30Z');

describe('projectUpstreamAvailability', () => {
  it('is Available=True, Healthy, without a cool-down end when healthy', () => {
    expect(projectUpstreamAvailability(HEALTHY)).toEqual({
      reason: 'Healthy',
      condition: { type: 'Available', status: 'True', reason: 'Healthy', message: 'taking calls' },
      cooldownEndTime: null,
    });
  });

  it('names the cool-down end and its cause', () => {
    const result = projectUpstreamAvailability({
      ...HEALTHY,
      state: 'CoolingDown',
      until,
      failures: 1,
      cause: 'rate-limited',
    });
    expect(result.reason).toBe('CoolingDown');
    expect(result.condition.status).toBe('False');
    expect(result.condition.message).toContain('429');
    expect(result.cooldownEndTime).toBe('2026-11-24T10:00:30Z');
  });

  it('reports an open circuit, and invalid credentials before anything else', () => {
    const open = {
      ...HEALTHY,
      state: 'CircuitOpen' as const,
      until,
      failures: 3,
      cause: 'failed' as const,
    };
    expect(projectUpstreamAvailability(open).reason).toBe('CircuitOpen');
    expect(projectUpstreamAvailability(open).condition.message).toContain('3 consecutive');
    const refused = { ...open, credentialsFailedAt: until - 1000 };
    expect(projectUpstreamAvailability(refused).reason).toBe('CredentialsInvalid');
    expect(projectUpstreamAvailability({ ...HEALTHY, credentialsFailedAt: until }).reason).toBe(
      'CredentialsInvalid',
    );
  });
});
