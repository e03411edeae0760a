/**
 * An Upstream's `Available` condition and `cooldownEndTime` from its health in the store (pure;
 * docs/upstream-pools.md). Reasons, first match wins: `CredentialsInvalid` (the upstream refused
 * the gateway's credential and has not served since), `CircuitOpen` (consecutive failures; it
 * half-opens for one probe call at the end time), `CoolingDown` (a 429 / 529 until its reset),
 * `Healthy`.
 */
import type { UpstreamHealth } from '../../store/upstream-health.js';
import type { DesiredCondition } from './manage-conditions.js';
import { formatTime } from './manage-conditions.js';

export const AVAILABILITY_REASONS = [
  'Healthy',
  'CoolingDown',
  'CircuitOpen',
  'CredentialsInvalid',
] as const;

export type AvailabilityReason = (typeof AVAILABILITY_REASONS)[number];

export interface UpstreamAvailability {
  reason: AvailabilityReason;
  condition: DesiredCondition;
  /** RFC 3339; null when the upstream is not paused. */
  cooldownEndTime: string | null;
}

const CAUSES = {
  'rate-limited': 'a rate limit (429)',
  overloaded: 'an overload (529 or 5xx with a reset time)',
  failed: 'consecutive failures',
  credentials: 'a credential refusal',
} as const;

function available(reason: AvailabilityReason, message: string): DesiredCondition {
  return {
    type: 'Available',
    status: reason === 'Healthy' ? 'True' : 'False',
    reason,
    message,
  };
}

export function projectUpstreamAvailability(health: UpstreamHealth): UpstreamAvailability {
  const end = health.until === null ? null : formatTime(health.until);
  if (health.credentialsFailedAt !== null) {
    const since = formatTime(health.credentialsFailedAt);
    return {
      reason: 'CredentialsInvalid',
      condition: available(
        'CredentialsInvalid',
        `the upstream refused the gateway credential at ${since} (401/403); check the Upstream's Secret`,
      ),
      cooldownEndTime: end,
    };
  }
  if (health.state === 'CircuitOpen') {
    return {
      reason: 'CircuitOpen',
      condition: available(
        'CircuitOpen',
        `skipped after ${health.failures} consecutive failures; one probe call is let through from ${end ?? 'now'}`,
      ),
      cooldownEndTime: end,
    };
  }
  if (health.state === 'CoolingDown') {
    const cause = health.cause === null ? 'a failure' : CAUSES[health.cause];
    return {
      reason: 'CoolingDown',
      condition: available('CoolingDown', `skipped until ${end ?? 'now'} after ${cause}`),
      cooldownEndTime: end,
    };
  }
  return {
    reason: 'Healthy',
    condition: available('Healthy', 'taking calls'),
    cooldownEndTime: null,
  };
}
