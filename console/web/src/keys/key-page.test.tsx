// @vitest-environment jsdom
/**
 * The key page in jsdom against stubbed console API answers: the readiness shown agrees with the
 * key's state while the operator's Ready report still lags, the usage panel is read again after an
 * action, and "Reset the quota" says what it did. Unit table for readinessOf.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { KeyView } from '../api/console-api.js';
import { NavLinks } from '../shell/nav-links.js';
import { stubConsoleFetch, type StubCall } from '../../test-support/stub-console-fetch.js';
import { keyFixture } from '../../test-support/key-fixture.js';
import { KeyPage } from './key-page.js';
import { readinessOf } from './key-readiness.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = {
  username: 'alice',
  groups: [],
  method: 'local' as const,
  csrfToken: 'token',
  expiresTime: '2030-01-01T00:00:00Z',
};

/** Leaves `GET /me/access` unanswered (the other stubbed calls answer). */
function holdAccess(): void {
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: { method?: string }) =>
    input.includes('/me/access') ? new Promise<never>(() => undefined) : answer(input, init),
  );
}

function renderKeyPage(
  key: KeyView,
  usedNano: () => number,
  options: { withNavigation?: boolean; holdAccess?: boolean } = {},
): StubCall[] {
  const verbs = { list: true, create: true, update: true, delete: true };
  const calls = stubConsoleFetch({
    // A key manager: the actions are offered.
    'GET /me/access': () => ({
      administer: false,
      groups: verbs,
      upstreams: verbs,
      plans: verbs,
      accounts: verbs,
      keys: verbs,
      namespace: 'demo',
    }),
    'GET /accounts/demo/keys/key-0001': () => key,
    'GET /accounts/demo/keys/key-0001/usage': () => ({
      timeZone: 'UTC',
      today: { requests: 1, errorRequests: 0, costNano: usedNano() },
      lastDays: { requests: 1, errorRequests: 0, costNano: usedNano() },
      daily: [],
      quota: {
        limitNano: 10e9,
        usedNano: usedNano(),
        remainingNano: 10e9 - usedNano(),
        fraction: usedNano() / 10e9,
      },
    }),
    'POST /accounts/demo/keys/key-0001/reset-quota': () => key,
    'POST /accounts/demo/keys/key-0001/disable': () => ({ ...key, state: 'disabled' }),
  });
  if (options.holdAccess === true) holdAccess();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = <KeyPage namespace="demo" name="key-0001" me={me} />;
  render(
    <QueryClientProvider client={client}>
      {options.withNavigation === true ? (
        <Router hook={memoryLocation({ path: '/accounts/demo/keys/key-0001' }).hook}>
          <NavLinks />
          {page}
        </Router>
      ) : (
        page
      )}
    </QueryClientProvider>,
  );
  return calls;
}

const readyText = () => {
  const term = screen.getByText('Ready', { selector: 'dt' });
  return term.nextElementSibling?.textContent;
};

describe('key page', () => {
  it('does not show a stale "Suspended" next to an enabled key', async () => {
    const key = keyFixture(1, {
      state: 'enabled',
      ready: { status: 'False', reason: 'Suspended', message: 'the key is suspended' },
    });
    renderKeyPage(key, () => 0);
    await screen.findByRole('heading', { name: 'key-0001' });
    expect(readyText()).toBe('being enabled: the gateway accepts the key within moments');
    expect(screen.queryByText(/Suspended/)).toBeNull();
  });

  it('shows its label with the object name, the windows, the expiry and the address lists', async () => {
    const soon = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const key = keyFixture(1, {
      displayName: 'Équipe données 数据 team',
      limits: { quotaUSD: '10', fiveHourUSD: '1.5', dailyUSD: '2', sevenDayUSD: null },
      usage: {
        ...keyFixture(1).usage,
        windows: [
          { name: 'Daily', usedUSD: '0.25', resetTime: soon },
          { name: 'SevenDay', usedUSD: '0.5', resetTime: null },
        ],
      },
      sourceRanges: { allow: ['10.0.0.0/8', '::1'], deny: [] },
      expirationTime: new Date(Date.now() + 4 * 86_400_000).toISOString(),
    });
    renderKeyPage(key, () => 0);
    await screen.findByRole('heading', { name: 'Équipe données 数据 team' });
    expect(screen.getByLabelText('Object name').textContent).toBe('key-0001');
    const figure = (term: string) =>
      screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    // A cap without a figure yet has used $0; a figure without a cap says there is none.
    expect(figure('5-hour window')).toBe('$0.00 of $1.50');
    expect(figure('Daily window')).toBe('$0.25 of $2.00 · resets in 3 h');
    expect(figure('7-day window')).toBe('$0.50 used, no cap');
    expect(figure('Expires')).toMatch(/\(in 4 d\)$/);
    expect(figure('Allowed addresses')).toBe('10.0.0.0/8::1');
    expect(figure('Denied addresses')).toBe('none');
  });

  it('asks what the user may do once for the navigation and the page, for its account', async () => {
    const calls = renderKeyPage(keyFixture(1, { state: 'enabled' }), () => 0, {
      withNavigation: true,
    });
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Keys' }).getAttribute('aria-current')).toBe('page');
    const asked = calls.filter((call) => call.url.pathname === '/api/v1/me/access');
    expect(asked.map((call) => call.url.search)).toEqual(['?namespace=demo']);
  });

  it('shows the key and its usage while the access answer is on its way, actions hidden', async () => {
    renderKeyPage(keyFixture(1, { state: 'enabled' }), () => 2e9, {
      withNavigation: true,
      holdAccess: true,
    });
    const usage = await screen.findByRole('region', { name: 'Usage' });
    await waitFor(() => {
      expect(usage.textContent).toContain('$2.00 of $10.00');
    });
    expect(readyText()).toBe('ready');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable' })).toBeNull();
  });

  it('reads the usage again after a quota reset and says what was done', async () => {
    let used = 3e9;
    const calls = renderKeyPage(keyFixture(1, { state: 'enabled' }), () => used);
    const usage = await screen.findByRole('region', { name: 'Usage' });
    await waitFor(() => {
      expect(usage.textContent).toContain('$3.00 of $10.00');
    });
    expect(within(usage).getByRole('link', { name: 'Usage records' }).getAttribute('href')).toBe(
      '/accounts/demo/keys/key-0001/records',
    );
    used = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Reset quota' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset the quota' }));
    expect(await screen.findByText('Done: the used quota starts again from $0.')).toBeTruthy();
    await waitFor(() => {
      expect(usage.textContent).toContain('$0.00 of $10.00');
    });
    // The key's figures agree with the usage card (the ledger's, not the status' $1.50).
    expect(
      screen.getByText('Quota', { selector: 'dl.card dt' }).nextElementSibling?.textContent,
    ).toBe('$0.00 / $10.00');
    const posted = calls.filter((call) => call.method === 'POST');
    expect(posted.map((call) => call.url.pathname)).toEqual([
      '/api/v1/accounts/demo/keys/key-0001/reset-quota',
    ]);
  });

  it('says the key is disabled after "Disable"', async () => {
    renderKeyPage(keyFixture(1, { state: 'enabled' }), () => 0);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Done: the key is disabled.')).toBeTruthy();
    expect(readyText()).toBe('being disabled: the gateway refuses the key within moments');
  });
});

describe('readinessOf', () => {
  const ready = (status: string, reason: string | null) => ({ status, reason, message: null });
  it.each([
    ['enabled', ready('True', 'Active'), 'ready', false, null],
    [
      'enabled',
      ready('False', 'Suspended'),
      'being enabled: the gateway accepts the key within moments',
      true,
      'being enabled',
    ],
    [
      'disabled',
      ready('True', 'Active'),
      'being disabled: the gateway refuses the key within moments',
      true,
      'being disabled',
    ],
    ['disabled', ready('False', 'Suspended'), 'Suspended', false, 'Not ready: Suspended'],
    ['disabled', ready('False', 'InvalidKey'), 'InvalidKey', false, 'Not ready: InvalidKey'],
    [
      'enabled',
      ready('False', 'GroupNotFound'),
      'GroupNotFound',
      false,
      'Not ready: GroupNotFound',
    ],
    ['enabled', ready('Unknown', null), 'pending', true, 'Not ready: pending'],
  ] as const)('%s with %j reads %s', (...[state, condition, text, pending, brief]) => {
    expect(readinessOf({ state, ready: condition })).toEqual({ text, pending, brief });
  });
});
