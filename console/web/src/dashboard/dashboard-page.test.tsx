// @vitest-environment jsdom
/**
 * The dashboard rendered in jsdom against stubbed console API answers: the trend's totals and the
 * page's one period (the requests it makes: the trend, the models and the top keys over the same
 * range), the model table, the top keys linking to their pages, the balance and the concurrency,
 * and an account without an Account.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountStanding } from '../api/usage-api.js';
import { stubConsoleFetch, type StubCall } from '../../test-support/stub-console-fetch.js';
import { totals } from '../../test-support/usage-fixtures.js';
import { keyFixture } from '../../test-support/key-fixture.js';
import { DashboardPage } from './dashboard-page.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  // The period lives in the address: each test starts without one.
  window.history.replaceState(null, '', '/');
});

const standing: AccountStanding = {
  namespace: 'demo',
  hasAccount: true,
  displayName: 'Demo',
  creditUSD: '10',
  spentUSD: '2.5',
  balanceUSD: '7.5',
  spentFraction: 0.25,
  reservedUSD: '0.2',
  inFlight: 2,
  maxConcurrentRequests: 4,
  source: 'store',
  subscription: null,
};

function renderDashboard(account: AccountStanding = standing): StubCall[] {
  const hour = new Date();
  const label = (time: Date) =>
    `${time.toISOString().slice(0, 10)}T${String(time.getUTCHours()).padStart(2, '0')}:00`;
  const calls = stubConsoleFetch({
    'GET /accounts': () => ({
      items: [{ namespace: 'demo', displayName: 'Demo', hasAccount: true }],
    }),
    'GET /accounts/demo/usage/account': () => account,
    'GET /accounts/demo/usage/trend': (url) => ({
      timeZone: 'UTC',
      points:
        url.searchParams.get('bucket') === 'hour'
          ? [{ ...totals({ requests: 3, costNano: 2_500_000 }), start: 0, label: label(hour) }]
          : [
              {
                ...totals({ requests: 7, costNano: 9_000_000 }),
                start: 0,
                label: hour.toISOString().slice(0, 10),
              },
            ],
    }),
    'GET /accounts/demo/usage/models': () => ({
      models: [
        {
          ...totals({ requests: 2, costNano: 2_000_000 }),
          model: 'claude-sonnet-4-6',
          costShare: 0.8,
        },
        { ...totals({ requests: 1, costNano: 500_000 }), model: 'gpt-5.5', costShare: 0.2 },
      ],
    }),
    // One key of the two still listed, with a label; the other reads by its object name.
    'GET /accounts/demo/keys': () => ({
      items: [keyFixture(2, { uid: 'u2', name: 'laptop', displayName: 'Laptop 笔记本' })],
    }),
    'GET /accounts/demo/usage/top-keys': () => ({
      from: '',
      to: '',
      keys: [
        {
          ...totals({ requests: 2, costNano: 2_000_000 }),
          keyUid: 'u1',
          keyName: 'ci key',
          costShare: 0.8,
        },
        {
          ...totals({ requests: 1, costNano: 500_000 }),
          keyUid: 'u2',
          keyName: 'laptop',
          costShare: 0.2,
        },
      ],
    }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <DashboardPage namespace="demo" />
    </QueryClientProvider>,
  );
  return calls;
}

/** The query of the last call to a usage path. */
function lastQuery(calls: StubCall[], path: string): URLSearchParams {
  const found = calls.filter((call) => call.url.pathname === `/api/v1/accounts/demo/usage/${path}`);
  const last = found.at(-1);
  if (last === undefined) throw new Error(`no call to ${path}`);
  return last.url.searchParams;
}

/** Milliseconds between a query's `from` and `to`. */
const span = (query: URLSearchParams) =>
  Date.parse(query.get('to') ?? '') - Date.parse(query.get('from') ?? '');

describe('dashboard', () => {
  it('shows the last 24 hours, then the last 30 days, with requests, tokens and cost', async () => {
    const calls = renderDashboard();
    const totalsList = await screen.findByLabelText('Totals, last 24 hours');
    await waitFor(() => {
      expect(totalsList.textContent).toContain('3 requests');
    });
    // 176 tokens: reasoning is part of the output and not counted again.
    expect(totalsList.textContent).toContain('Tokens176');
    expect(totalsList.textContent).toContain('$0.0025');
    const hourly = lastQuery(calls, 'trend');
    expect(hourly.get('bucket')).toBe('hour');
    expect(span(hourly)).toBeGreaterThan(23 * 3_600_000);
    expect(span(hourly)).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);

    fireEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    const daily = await screen.findByLabelText('Totals, last 30 days');
    await waitFor(() => {
      expect(daily.textContent).toContain('7 requests');
    });
    expect(window.location.search).toBe('?period=30d');
    expect(lastQuery(calls, 'trend').get('bucket')).toBe('day');
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Tokens' }));
    expect(screen.getByRole('button', { name: 'Tokens' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('lists the models and the top keys, linked to their pages, over the one period', async () => {
    const calls = renderDashboard();
    const models = await screen.findByRole('table', { name: 'Usage per model' });
    const modelRows = within(models).getAllByRole('row').slice(1);
    expect(modelRows.map((row) => row.querySelector('th')?.textContent)).toEqual([
      'claude-sonnet-4-6',
      'gpt-5.5',
    ]);
    expect(modelRows[0]?.textContent).toContain('80.0%');
    const top = await screen.findByRole('table', { name: 'Top keys by cost' });
    expect(within(top).getByRole('link', { name: 'ci key' }).getAttribute('href')).toBe(
      '/accounts/demo/keys/ci%20key',
    );
    expect(within(top).getAllByRole('row')[1]?.textContent).toContain('$0.002');
    const labelled = await within(top).findByRole('link', { name: 'Laptop 笔记本' });
    expect(labelled.getAttribute('href')).toBe('/accounts/demo/keys/laptop');
    expect(labelled.parentElement?.querySelector('.object-name')?.textContent).toBe('laptop');
    // One period control on the page; the trend, the models and the top keys read the same range.
    expect(screen.getAllByRole('group', { name: 'Period' })).toHaveLength(1);
    expect(screen.queryByRole('combobox', { name: 'Period' })).toBeNull();
    const sameRange = () => {
      const ranges = ['trend', 'models', 'top-keys'].map((path) => {
        const query = lastQuery(calls, path);
        return `${query.get('from')} ${query.get('to')}`;
      });
      expect(new Set(ranges).size).toBe(1);
      return lastQuery(calls, 'top-keys');
    };
    expect(span(sameRange())).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => {
      expect(span(lastQuery(calls, 'top-keys'))).toBeGreaterThan(6 * 86_400_000);
    });
    await waitFor(() => {
      expect(span(sameRange())).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    });
    expect(screen.getByText('Share of the cost, last 7 days.')).toBeTruthy();
  });

  it('shows the balance and the requests in flight against the limit', async () => {
    renderDashboard();
    const balance = await screen.findByRole('region', { name: 'Balance' });
    await waitFor(() => {
      expect(balance.textContent).toContain('$2.50');
    });
    expect(balance.textContent).toContain('$10.00');
    expect(balance.textContent).toContain('$7.50');
    expect(within(balance).getByRole('meter', { name: 'Credit spent' }).getAttribute('value')).toBe(
      '0.25',
    );
    const concurrency = screen.getByRole('region', { name: 'Concurrency' });
    expect(within(concurrency).getByLabelText('Requests in flight').textContent).toBe('2 / 4');
  });

  it("says when the namespace has no Account, and when only the operator's report is known", async () => {
    renderDashboard({
      ...standing,
      hasAccount: false,
      creditUSD: null,
      spentUSD: null,
      balanceUSD: null,
      spentFraction: null,
    });
    expect(await screen.findByText(/has no Account/)).toBeTruthy();
    cleanup();
    renderDashboard({ ...standing, source: 'status', inFlight: null, reservedUSD: null });
    expect(await screen.findByText("As of the operator's last report.")).toBeTruthy();
    expect(screen.getByLabelText('Requests in flight').textContent).toBe('— / 4');
  });
});
