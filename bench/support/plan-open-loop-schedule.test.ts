import { describe, expect, it } from 'vitest';
import { dueCount, intendedSendTime, scheduleLength } from './plan-open-loop-schedule.js';

describe('the open-loop schedule', () => {
  const schedule = { rate: 500, startMs: 1_000, durationMs: 2_000 };

  it('sends rate x duration requests', () => {
    expect(scheduleLength(schedule)).toBe(1000);
    expect(scheduleLength({ ...schedule, rate: 0 })).toBe(0);
    expect(scheduleLength({ rate: 3, startMs: 0, durationMs: 999 })).toBe(2);
  });

  it('spaces intended send times evenly from the start', () => {
    expect(intendedSendTime(schedule, 0)).toBe(1_000);
    expect(intendedSendTime(schedule, 1)).toBe(1_002);
    expect(intendedSendTime(schedule, 999)).toBe(2_998);
  });

  it('counts requests due at a time, including ones a stalled sender missed', () => {
    expect(dueCount(schedule, 999)).toBe(0);
    expect(dueCount(schedule, 1_000)).toBe(1);
    expect(dueCount(schedule, 1_003)).toBe(2);
    // A sender that wakes 100 ms late owes every request scheduled meanwhile.
    expect(dueCount(schedule, 1_100)).toBe(51);
    expect(dueCount(schedule, 60_000)).toBe(1000);
  });

  it('never makes a request due before its intended time', () => {
    for (let now = 1_000; now < 3_100; now += 7) {
      const due = dueCount(schedule, now);
      if (due > 0) expect(intendedSendTime(schedule, due - 1)).toBeLessThanOrEqual(now);
      if (due < scheduleLength(schedule))
        expect(intendedSendTime(schedule, due)).toBeGreaterThan(now);
    }
  });
});
