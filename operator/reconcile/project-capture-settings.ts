/**
 * A key's effective capture settings (docs/captures.md "Settings"): each field of the key's
 * `spec.capture` overrides its group's, one by one; what neither sets takes the code default.
 * Undefined when neither requests nor responses are captured, so the key document carries
 * nothing and the gateway does nothing for the key's calls.
 */
import { CAPTURE_DEFAULTS } from '../../crds/schema/capture-fields.js';
import type { ApiKey, Group } from '../../crds/schema/resources.js';
import type { CaptureSettings } from '../../store/captured-call.js';

export function projectCaptureSettings(
  key: ApiKey['spec']['capture'],
  group: Group['spec']['capture'],
): CaptureSettings | undefined {
  const requests = key?.requests ?? group?.requests ?? CAPTURE_DEFAULTS.requests;
  const responses = key?.responses ?? group?.responses ?? CAPTURE_DEFAULTS.responses;
  if (!requests && !responses) return undefined;
  return {
    requests,
    responses,
    maxBytes: key?.maxBytes ?? group?.maxBytes ?? CAPTURE_DEFAULTS.maxBytes,
    retentionDays: key?.retentionDays ?? group?.retentionDays ?? CAPTURE_DEFAULTS.retentionDays,
  };
}
