/**
 * Pure: what the key page says of a key's readiness. The state (enabled, disabled, expired) is
 * the resource's spec; the Ready condition is the operator's last report. Right after an enable,
 * disable or edit the condition can still describe the key as it was (an enabled key "Suspended",
 * a disabled one "Active"): then the page says the change is being applied instead of showing a
 * reason that contradicts the state. The keys table uses the same rule, in fewer words.
 */
import type { KeyView } from '../api/console-api.js';

export interface Readiness {
  /** The words shown. */
  text: string;
  /** True while the operator's report lags behind the resource. */
  pending: boolean;
  /** The words of a table cell: null when ready, else `Not ready: <reason>` or `being enabled`. */
  brief: string | null;
}

/** Reasons that outrank a suspension (the key's value itself is unusable or not read yet). */
const BEFORE_SUSPEND = new Set(['InvalidKey', 'SecretConflict', 'DuplicateKey', 'Pending']);

export function readinessOf(key: Pick<KeyView, 'state' | 'ready'>): Readiness {
  const { state, ready } = key;
  const reason = ready.reason ?? '';
  const suspended = reason === 'Suspended';
  const stale =
    (state === 'enabled' && suspended) ||
    (state === 'disabled' && !suspended && !BEFORE_SUSPEND.has(reason));
  if (stale) {
    const disabling = state === 'disabled';
    return {
      text: disabling
        ? 'being disabled: the gateway refuses the key within moments'
        : 'being enabled: the gateway accepts the key within moments',
      pending: true,
      brief: disabling ? 'being disabled' : 'being enabled',
    };
  }
  if (ready.status === 'True') return { text: 'ready', pending: false, brief: null };
  const shown = ready.reason ?? 'pending';
  return {
    text: ready.message === null ? shown : `${shown}: ${ready.message}`,
    pending: ready.reason === null || ready.reason === 'Pending',
    brief: `Not ready: ${shown}`,
  };
}
