/**
 * What the evaluation reads, gathered once per round from the resources and the store's counters
 * (read-notification-snapshot.ts). Money in nano-USD, times in epoch milliseconds.
 */
import type { UpstreamHealth } from '../../store/upstream-health.js';

export interface WindowFigures {
  name: string;
  usedNano: number;
  /** The cap; 0 = none (nothing fires). */
  capNano: number;
  /** What names the window's current period (its reset time, the quota's reset token). */
  period: string;
  resetTime: number | null;
}

export interface KeySnapshot {
  namespace: string;
  name: string;
  expirationTime: number | null;
  /** FiveHour, Daily, SevenDay and Quota, those with a cap. */
  windows: WindowFigures[];
}

export interface AccountSnapshot {
  namespace: string;
  creditNano: number | null;
  spentNano: number;
  subscriptionEnd: number | null;
  planName: string | null;
  planWindows: WindowFigures[];
  members: { owner: string; windows: WindowFigures[] }[];
}

export interface UpstreamSnapshot {
  name: string;
  health: UpstreamHealth;
}

export interface NotificationSnapshot {
  now: number;
  keys: KeySnapshot[];
  accounts: AccountSnapshot[];
  upstreams: UpstreamSnapshot[];
}
