// @vitest-environment jsdom
/**
 * The key's usage records page in jsdom against stubbed console API answers: the rows (time, model,
 * tokens, cost, duration, first byte, stream, outcome or "Token count", request id), the time
 * zone named, the filters sent to the records API and carried by the CSV link and its file name,
 * the pages through the API's cursor, and a backwards time range refused before any call.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyUsage } from '../../../../store/usage-buckets.js';
import { stubConsoleFetch, type StubCall } from '../../test-support/stub-console-fetch.js';
import { timeZoneCaption } from '../format/format-usage.js';
import { totals, usageRecord } from '../../test-support/usage-fixtures.js';
import { keyFixture } from '../../test-support/key-fixture.js';
import { KeyRecordsPage } from './key-records-page.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderRecords(): StubCall[] {
  const calls = stubConsoleFetch({
    'GET /accounts/demo/usage/records': (url) => {
      const cursor = url.searchParams.get('cursor');
      const outcome = url.searchParams.get('outcome');
      if (outcome === 'server_error') {
        return {
          records: [usageRecord(9, { outcome: 'server_error', status: 502, model: 'gpt-5.5' })],
          nextCursor: null,
        };
      }
      return cursor === null
        ? {
            records: [
              usageRecord(0, {
                usage: {
                  inputUncached: 1200,
                  cacheRead: 300,
                  cacheWrite5m: 40,
                  cacheWrite1h: 2,
                  output: 77,
                  reasoning: 0,
                },
              }),
              usageRecord(1, { estimated: true, outcome: 'client_error', status: 429 }),
              usageRecord(3, {
                kind: 'token_count',
                usage: emptyUsage(),
                costNano: 0,
                timeToFirstByteMs: null,
                stream: false,
              }),
            ],
            nextCursor: 'page-2',
          }
        : { records: [usageRecord(2, { model: 'claude-opus-4-1' })], nextCursor: null };
    },
    'GET /accounts/demo/keys/ci-key': () =>
      keyFixture(1, { name: 'ci-key', displayName: 'CI runner 数据' }),
    'GET /accounts/demo/usage/models': () => ({
      models: [
        { ...totals(), model: 'claude-sonnet-4-6', costShare: 0.9 },
        { ...totals(), model: 'gpt-5.5', costShare: 0.1 },
      ],
    }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <KeyRecordsPage namespace="demo" name="ci-key" />
    </QueryClientProvider>,
  );
  return calls;
}

const recordCalls = (calls: StubCall[]) =>
  calls.filter((call) => call.url.pathname === '/api/v1/accounts/demo/usage/records');

/** The query of the last records call. */
function lastQuery(calls: StubCall[]): URLSearchParams {
  const last = recordCalls(calls).at(-1);
  if (last === undefined) throw new Error('no records call');
  return last.url.searchParams;
}

/** A row's cells by their label. */
const cells = (row: HTMLElement | undefined): Record<string, string | null> =>
  Object.fromEntries(
    [...(row?.querySelectorAll('th, td') ?? [])].map((cell) => [
      cell.getAttribute('data-label') ?? '',
      cell.textContent,
    ]),
  );

describe('key usage records', () => {
  it('names the key by its label in the heading and the link back, and asks by its object name', async () => {
    const calls = renderRecords();
    expect(
      await screen.findByRole('heading', { name: 'Usage records of CI runner 数据' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: '← CI runner 数据' }).getAttribute('href')).toBe(
      '/accounts/demo/keys/ci-key',
    );
    expect(lastQuery(calls).get('key')).toBe('ci-key');
  });

  it("lists the key's records with tokens, cost, duration and outcome", async () => {
    const calls = renderRecords();
    const table = await screen.findByRole('table', { name: 'Usage records of CI runner 数据' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(cells(rows[0])).toMatchObject({
      Model: 'claude-sonnet-4-6',
      Input: '1,200',
      Output: '77',
      'Cache read': '300',
      'Cache write': '42',
      Cost: '$0.0015',
      Duration: '1.2 s',
      'First byte': '200 ms',
      Stream: 'no',
      Outcome: 'Success · 200',
      'Request id': 'req-0',
    });
    expect(cells(rows[1])).toMatchObject({
      Cost: '$0.0015estimated',
      Outcome: 'Client error · 429',
    });
    // A token count says so, with no first byte and no tokens.
    expect(cells(rows[2])).toMatchObject({
      Input: '0',
      Output: '0',
      'First byte': '—',
      Outcome: 'Token count · 200',
      'Request id': 'req-3',
    });
    // The zone the times are in, named from the browser's own.
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    const caption = screen.getByText(/^Times in /).textContent;
    expect(caption).toBe(timeZoneCaption(Date.UTC(2026, 2, 20, 15)));
    expect(caption).toContain(zone);
    const first = lastQuery(calls);
    expect(first.get('key')).toBe('ci-key');
    expect(first.get('limit')).toBe('50');
    expect(screen.getByText('Records 1–3, more after')).toBeTruthy();
  });

  it('filters by model and outcome, and the CSV link carries the same filter', async () => {
    const calls = renderRecords();
    await screen.findByRole('table');
    await screen.findByRole('option', { name: 'gpt-5.5' });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'gpt-5.5' } });
    fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: 'server_error' } });
    await waitFor(() => {
      expect(screen.getByText('Server error · 502')).toBeTruthy();
    });
    const sent = lastQuery(calls);
    expect(sent.get('model')).toBe('gpt-5.5');
    expect(sent.get('outcome')).toBe('server_error');
    const csv = new URL(
      screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href') ?? '',
      'http://console.test',
    );
    expect(csv.pathname).toBe('/api/v1/accounts/demo/usage/records.csv');
    expect(Object.fromEntries(csv.searchParams)).toEqual({
      key: 'ci-key',
      model: 'gpt-5.5',
      outcome: 'server_error',
    });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-20T10:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-21T00:00' } });
    await waitFor(() => {
      expect(lastQuery(calls).get('to')).toBe(new Date('2026-03-21T00:00').toISOString());
    });
    expect(lastQuery(calls).get('from')).toBe(new Date('2026-03-20T10:00').toISOString());
    // The download is named after the filter (times in UTC to the minute).
    const stamp = (local: string) =>
      `${new Date(local).toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`;
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('download')).toBe(
      `tollgate-records-demo-ci-key-${stamp('2026-03-20T10:00')}-${stamp('2026-03-21T00:00')}-gpt-5.5-server_error.csv`,
    );
  });

  it('pages with the cursor, back and forth', async () => {
    const calls = renderRecords();
    await screen.findByText('Records 1–3, more after');
    expect(screen.getByRole('button', { name: '← Newer' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Older →' }));
    await screen.findByText('Records 51–51');
    expect(lastQuery(calls).get('cursor')).toBe('page-2');
    expect(screen.getByText('claude-opus-4-1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Older →' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: '← Newer' }));
    await screen.findByText('Records 1–3, more after');
  });

  it('refuses a time range that ends before it starts, without asking the server', async () => {
    const calls = renderRecords();
    await screen.findByRole('table');
    const before = recordCalls(calls).length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-20T10:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-19T10:00' } });
    expect(screen.getByRole('alert').textContent).toBe('"To" must be after "From".');
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Only the "From" change asked the server.
    expect(recordCalls(calls).length).toBe(before + 1);
  });
});
