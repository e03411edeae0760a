/**
 * Replays the spend windows from the charges in the ledger, with exactly the rule of the settlement
 * script (store/lua-shared-functions.ts `chargeCost`): a charge adds to a window that is
 * still open (its end after the charge time); otherwise a positive charge opens a new window of the
 * window's duration with the charge as its first spend. Windows are fixed, so the state at `now`
 * depends on the whole chain of windows before it: replay from a time no window was open.
 */
import { WINDOWS, type WindowName } from '../../store/store.js';

export interface Charge {
  /** Epoch ms the counters were charged (the record's `charged_at`). */
  time: number;
  costNano: number;
}

export interface ReplayedWindow {
  name: WindowName;
  /** Spend in the window open at `now` (0 when none is open). */
  usedNano: number;
  /** When that window ends (epoch ms), or null when none is open at `now`. */
  resetTime: number | null;
  /** The last window opened, open or not: what the live counters hold. */
  last: { usedNano: number; end: number } | null;
}

/** `charges` in charge order (ties in any order: they commute). */
export function replayWindows(charges: readonly Charge[], now: number): ReplayedWindow[] {
  return WINDOWS.map((window) => {
    const last = charges.reduce<{ usedNano: number; end: number } | null>((current, charge) => {
      if (current !== null && current.end > charge.time) {
        return { usedNano: current.usedNano + charge.costNano, end: current.end };
      }
      if (charge.costNano > 0)
        return { usedNano: charge.costNano, end: charge.time + window.durationMs };
      return current;
    }, null);
    const open = last !== null && last.end > now;
    return {
      name: window.name,
      usedNano: open ? last.usedNano : 0,
      resetTime: open ? last.end : null,
      last,
    };
  });
}
