// @vitest-environment jsdom
/**
 * One record's page in jsdom against stubbed console API answers: the record's figures; for a user
 * allowed the capture, the request and response (pretty-printed JSON, the redaction summary, the
 * truncated flag, Copy); "Not captured" on 404; the refusal on 403; and the link
 * from a row of the records table.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CapturedCallView } from '../api/usage-api.js';
import { keyFixture } from '../../test-support/key-fixture.js';
import { StubStatus, stubConsoleFetch } from '../../test-support/stub-console-fetch.js';
import { usageRecord } from '../../test-support/usage-fixtures.js';
import { RecordPage } from './record-page.js';
import { RecordsTable } from './records-table.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RECORD = '/accounts/demo/keys/ci-key/records/req-7';

const captured: CapturedCallView = {
  requestId: 'req-7',
  keyName: 'ci-key',
  group: 'claude',
  platform: 'Anthropic',
  path: '/v1/messages',
  model: 'claude-sonnet-4-6',
  streamed: true,
  at: '2026-03-20T14:53:00.000Z',
  expiresAt: '2026-03-27T14:53:00.000Z',
  request: {
    text: '{"model":"claude-sonnet-4-6","system":"token [REDACTED:anthropic-key]"}',
    bytes: 120,
    truncated: false,
    contentType: 'application/json',
    redactions: [{ kind: 'anthropic-key', count: 1 }],
  },
  response: {
    text: '{"type":"message","content":[{"type":"te',
    bytes: 9_000,
    truncated: true,
    contentType: 'application/json',
    redactions: [],
  },
};

function renderRecord(capture: () => unknown): void {
  stubConsoleFetch({
    [`GET ${RECORD}`]: () => usageRecord(7, { outcome: 'client_error', status: 429 }),
    [`GET ${RECORD}/capture`]: capture,
    'GET /accounts/demo/keys/ci-key': () => keyFixture(1, { name: 'ci-key', displayName: 'CI' }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RecordPage namespace="demo" name="ci-key" requestId="req-7" />
    </QueryClientProvider>,
  );
}

describe("a record's page", () => {
  it('shows the figures and the captured request and response to a user allowed them', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRecord(() => captured);
    expect(await screen.findByText('Client error · 429')).toBeTruthy();
    const request = await screen.findByRole('region', { name: 'Request' });
    expect(within(request).getByText('Redacted: 1 × anthropic-key')).toBeTruthy();
    const pretty = within(request).getByLabelText('Request', { selector: 'pre' });
    expect(pretty.textContent).toBe(
      '{\n  "model": "claude-sonnet-4-6",\n  "system": "token [REDACTED:anthropic-key]"\n}',
    );
    const response = screen.getByRole('region', { name: 'Response' });
    expect(within(response).getByText('Truncated')).toBeTruthy();
    expect(within(response).getByText('Nothing redacted')).toBeTruthy();
    // A cut body is shown as stored, not re-indented.
    expect(within(response).getByLabelText('Response', { selector: 'pre' }).textContent).toBe(
      captured.response?.text,
    );
    fireEvent.click(within(request).getByRole('button', { name: 'Copy Request' }));
    await waitFor(() => {
      expect(writeText).toHaveBeenCalledWith(
        expect.stringContaining('"model": "claude-sonnet-4-6"'),
      );
    });
    expect(screen.getByText(/streamed/)).toBeTruthy();
    expect(screen.queryByText(/not allowed/)).toBeNull();
  });

  it('says "Not captured" when the call was not captured', async () => {
    renderRecord(
      () => new StubStatus(404, { error: { code: 'NOT_FOUND', message: 'not captured' } }),
    );
    expect(await screen.findByText(/^Not captured:/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Request' })).toBeNull();
  });

  it('says plainly that the user may not see captured bodies', async () => {
    renderRecord(
      () =>
        new StubStatus(403, {
          error: { code: 'FORBIDDEN', message: 'User "vera" may not see captured bodies' },
        }),
    );
    expect(await screen.findByText(/You are not allowed to see captured bodies\./)).toBeTruthy();
    // The figures are still shown to a viewer.
    expect(await screen.findByText('Client error · 429')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Request' })).toBeNull();
  });
});

describe('the records table', () => {
  it("links each record's request id to its page", () => {
    render(
      <RecordsTable
        namespace="demo"
        name="ci-key"
        label="CI"
        records={[usageRecord(7)]}
        busy={false}
      />,
    );
    const link = screen.getByRole('link', { name: 'Record req-7' });
    expect(link.getAttribute('href')).toBe(RECORD);
  });
});
