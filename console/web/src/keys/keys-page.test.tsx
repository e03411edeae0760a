// @vitest-environment jsdom
/**
 * The keys page rendered in jsdom from a filled query cache (no server): 1,000 keys listed a page
 * at a time, the search and the sort over all of them, state and Ready reason (a stale report
 * said as the change being applied) and the quota bar show.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyView } from '../api/console-api.js';
import { keyFixture } from '../../test-support/key-fixture.js';
import { KeysPage, STATUS_COUNTERS_TEXT } from './keys-page.js';

afterEach(cleanup);

const verbs = (allowed: boolean) => ({
  list: true,
  create: allowed,
  update: allowed,
  delete: allowed,
});

const CHANGED: Record<number, Partial<KeyView>> = {
  7: { ready: { status: 'False', reason: 'GroupNotFound', message: 'no group' } },
  // Just enabled: the operator's last report still says it is suspended.
  8: { state: 'enabled', ready: { status: 'False', reason: 'Suspended', message: 'suspended' } },
};

function renderWithKeys(
  count: number,
  options: { mayCreate?: boolean; change?: (key: KeyView) => KeyView } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const change = options.change ?? ((key: KeyView) => key);
  const items = Array.from({ length: count }, (_, index) =>
    change(keyFixture(index, CHANGED[index])),
  );
  client.setQueryData(['keys', 'demo'], { items });
  client.setQueryData(['accounts'], {
    items: [
      { namespace: 'demo', displayName: null, hasAccount: true },
      { namespace: 'team-b', displayName: null, hasAccount: true },
    ],
  });
  client.setQueryData(['access', 'demo'], { keys: verbs(options.mayCreate ?? true) });
  return render(
    <QueryClientProvider client={client}>
      <KeysPage namespace="demo" />
    </QueryClientProvider>,
  );
}

describe('keys page', () => {
  it('offers "Create key" only to users whom RBAC lets create keys', () => {
    renderWithKeys(2, { mayCreate: false });
    expect(screen.getByText('2 keys')).toBeTruthy();
    expect(screen.queryByText('Create key')).toBeNull();
  });

  it('lists 1,000 keys a page at a time, searches and sorts them all', () => {
    const { container } = renderWithKeys(1000);
    // Queries over many cells are slow in jsdom: they look inside the toolbar, header and pager.
    const bodyRows = () => container.querySelectorAll('tbody tr');
    const firstName = () => bodyRows()[0]?.querySelector('th')?.textContent;
    const head = within(container.querySelector('thead') ?? container);
    const toolbar = within(container.querySelector('.toolbar') ?? container);
    const pager = () => within(screen.getByRole('navigation', { name: 'Pages of keys' }));
    expect(screen.getByText('1000 keys')).toBeTruthy();
    expect(bodyRows()).toHaveLength(100);
    expect(pager().getByText('Page 1 of 10 (keys 1–100)')).toBeTruthy();
    expect(pager().getByRole<HTMLButtonElement>('button', { name: '← Previous' }).disabled).toBe(
      true,
    );
    fireEvent.click(pager().getByRole('button', { name: 'Next →' }));
    expect(firstName()).toContain('key-0100');
    fireEvent.change(pager().getByLabelText('Keys per page'), { target: { value: '200' } });
    expect(bodyRows()).toHaveLength(200);
    expect(firstName()).toContain('key-0000');
    for (let page = 1; page < 5; page++) {
      fireEvent.click(pager().getByRole('button', { name: 'Next →' }));
    }
    expect(pager().getByText('Page 5 of 5 (keys 801–1000)')).toBeTruthy();
    expect(bodyRows()[199]?.querySelector('th')?.textContent).toContain('key-0999');
    expect(pager().getByRole<HTMLButtonElement>('button', { name: 'Next →' }).disabled).toBe(true);
    expect(screen.getByText('Create key').getAttribute('href')).toBe('/accounts/demo/keys/new');
    expect(toolbar.getByLabelText<HTMLSelectElement>('Account').value).toBe('demo');

    fireEvent.change(toolbar.getByLabelText('Search keys'), { target: { value: 'key-09' } });
    expect(screen.getByText('100 of 1000 keys')).toBeTruthy();
    expect(bodyRows()).toHaveLength(100);

    fireEvent.click(head.getByRole('button', { name: /^Today/ }));
    fireEvent.click(head.getByRole('button', { name: /^Today/ }));
    expect(head.getByRole('columnheader', { name: /^Today/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(firstName()).toContain('key-0999');
    // The search (made on the last page) starts again from the first page of what it found.
    expect(pager().getByText('Page 1 of 1 (keys 1–100)')).toBeTruthy();
  });

  it('shows the state, the Ready reason of a key that is not ready, and the quota bar', () => {
    renderWithKeys(10);
    const row = screen.getByRole('row', { name: /key-0007/ });
    expect(within(row).getByText('enabled')).toBeTruthy();
    expect(within(row).getByText('Not ready: GroupNotFound')).toBeTruthy();
    const bar = within(row).getByRole('meter', { name: 'Quota used by key-0007' });
    expect(bar.getAttribute('value')).toBe('0.75');
    expect(row.textContent).toContain('$1.00 / $2.00');
    const disabled = screen.getByRole('row', { name: /key-0003/ });
    expect(within(disabled).getByText('disabled')).toBeTruthy();
  });

  it('says an enabled key whose last Ready report is "Suspended" is being enabled', () => {
    renderWithKeys(10);
    const row = screen.getByRole('row', { name: /key-0008/ });
    expect(within(row).getByText('enabled')).toBeTruthy();
    expect(within(row).getByText('being enabled')).toBeTruthy();
    expect(within(row).queryByText(/Suspended/)).toBeNull();
  });

  it('lists the keys with today\'s cost "unavailable" when the usage ledger cannot be read', () => {
    renderWithKeys(3, {
      change: (key) => ({
        ...key,
        usage: { ...key.usage, todayCostUSD: null, ledgerUnavailable: true },
      }),
    });
    expect(screen.getByText('3 keys')).toBeTruthy();
    expect(screen.getByText(/Usage figures are unavailable/)).toBeTruthy();
    const row = screen.getByRole('row', { name: /key-0001/ });
    expect(row.querySelector('td[data-label="Today"]')?.textContent).toBe('unavailable');
    // The operator's figures (quota, windows) are still shown.
    expect(row.textContent).toContain('$1.50 / $10.00');
  });

  it('says when quota, windows and last use are the status instead of the live counters', () => {
    renderWithKeys(2);
    expect(screen.queryByText(STATUS_COUNTERS_TEXT)).toBeNull();
    cleanup();
    renderWithKeys(2, {
      change: (key) => ({ ...key, usage: { ...key.usage, countersSource: 'status' } }),
    });
    expect(screen.getByText(STATUS_COUNTERS_TEXT)).toBeTruthy();
    const row = screen.getByRole('row', { name: /key-0001/ });
    expect(row.textContent).toContain('$1.50 / $10.00');
  });
});
