/**
 * The open-loop schedule: request `i` is due at `startMs + i * 1000 / rate`, whether or not earlier
 * requests have finished. Latency is measured from this intended time, so a stalled sender or a
 * queue in front of the server shows up as latency instead of a lower send rate.
 */

export interface OpenLoopSchedule {
  /** Requests per second. */
  rate: number;
  startMs: number;
  durationMs: number;
}

/** How many requests the run sends in total. */
export function scheduleLength(schedule: OpenLoopSchedule): number {
  if (schedule.rate <= 0 || schedule.durationMs <= 0) return 0;
  return Math.floor((schedule.rate * schedule.durationMs) / 1000);
}

/** When request `index` should be sent. */
export function intendedSendTime(schedule: OpenLoopSchedule, index: number): number {
  return schedule.startMs + (index * 1000) / schedule.rate;
}

/** How many requests are due at `nowMs` (indices `0 .. n-1`), capped at the schedule length. */
export function dueCount(schedule: OpenLoopSchedule, nowMs: number): number {
  if (nowMs < schedule.startMs) return 0;
  const due = Math.floor(((nowMs - schedule.startMs) * schedule.rate) / 1000) + 1;
  return Math.min(scheduleLength(schedule), due);
}
