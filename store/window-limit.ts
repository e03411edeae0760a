/** The key limit that applies to each spend window. */
import type { KeyPolicy, WindowName } from './store.js';

export function windowLimit(limits: KeyPolicy['limits'], name: WindowName): number {
  switch (name) {
    case 'FiveHour':
      return limits.fiveHourNano;
    case 'Daily':
      return limits.dailyNano;
    case 'SevenDay':
      return limits.sevenDayNano;
  }
}
