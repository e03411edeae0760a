// @vitest-environment jsdom
/** The plan's windows in jsdom: used / cap per window, and the 80 % and 100 % marks. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PlanWindowsPanel } from './plan-windows-panel.js';

afterEach(cleanup);

const now = Date.parse('2026-11-28T12:00:00Z');

describe('plan windows panel', () => {
  it('marks a window over 80 % and one used up, and says when each resets', () => {
    render(
      <PlanWindowsPanel
        now={now}
        subscription={{
          planName: 'pro',
          startTime: '2026-11-01T00:00:00Z',
          endTime: null,
          state: 'Active',
          windows: [
            { name: 'FiveHour', usedUSD: '1', capUSD: '10', resetTime: '2026-11-28T15:00:00Z' },
            { name: 'Daily', usedUSD: '17', capUSD: '20', resetTime: '2026-11-29T00:00:00Z' },
            { name: 'Monthly', usedUSD: '300', capUSD: '300', resetTime: '2026-12-01T00:00:00Z' },
          ],
        }}
      />,
    );
    const panel = screen.getByRole('region', { name: 'Plan pro' });
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((item) => item.className)).toEqual([
      'window level-ok',
      'window level-warning',
      'window level-exhausted',
    ]);
    expect(items[0]?.textContent).toContain('5 hours');
    expect(items[0]?.textContent).toContain('Resets in 3 h');
    expect(items[0]?.textContent).not.toContain('used');
    expect(items[1]?.textContent).toContain('Over 80 % used');
    expect(items[2]?.textContent).toContain('Used up');
    expect(within(panel).getByRole('meter', { name: 'Today used' })).toBeTruthy();
    expect(panel.textContent).toContain('active');
  });

  it('says when the operator has not reported the windows yet', () => {
    render(
      <PlanWindowsPanel
        now={now}
        subscription={{
          planName: 'pro',
          startTime: '2026-11-01T00:00:00Z',
          endTime: '2026-12-01T00:00:00Z',
          state: null,
          windows: [],
        }}
      />,
    );
    expect(screen.getByText(/No window figures yet/)).toBeTruthy();
    expect(screen.getByText('not reported by the operator yet')).toBeTruthy();
  });
});
