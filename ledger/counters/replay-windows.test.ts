import { describe, expect, it } from 'vitest';
import { replayWindows } from './replay-windows.js';

const H = 3_600_000;

describe('replayWindows', () => {
  it('opens a window at the first charged request after the previous one closed', () => {
    const charges = [
      { time: 0, costNano: 10 },
      { time: 4 * H, costNano: 5 },
      // The 5-hour window opened at 0 closed at 5 h; this charge opens the next one.
      { time: 6 * H, costNano: 7 },
      { time: 7 * H, costNano: 1 },
    ];
    const [fiveHour, daily, sevenDay] = replayWindows(charges, 8 * H);
    expect(fiveHour).toMatchObject({ name: 'FiveHour', usedNano: 8, resetTime: 11 * H });
    expect(daily).toMatchObject({ name: 'Daily', usedNano: 23, resetTime: 24 * H });
    expect(sevenDay).toMatchObject({ name: 'SevenDay', usedNano: 23, resetTime: 168 * H });
  });

  it('does not open a window for a free request, and a charge at the end opens a new one', () => {
    const charges = [
      { time: 0, costNano: 4 },
      { time: 5 * H, costNano: 0 },
      { time: 5 * H, costNano: 3 },
    ];
    const [fiveHour] = replayWindows(charges, 5 * H + 1);
    expect(fiveHour).toMatchObject({ usedNano: 3, resetTime: 10 * H });
    const [freeOnly] = replayWindows([{ time: 0, costNano: 0 }], 1);
    expect(freeOnly).toMatchObject({ usedNano: 0, resetTime: null, last: null });
  });

  it('reports no open window once the last one ended', () => {
    const [fiveHour, daily] = replayWindows([{ time: 0, costNano: 9 }], 6 * H);
    expect(fiveHour).toMatchObject({ usedNano: 0, resetTime: null, last: { usedNano: 9 } });
    expect(daily).toMatchObject({ usedNano: 9, resetTime: 24 * H });
  });
});
