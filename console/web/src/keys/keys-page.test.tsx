// @vitest-environment jsdom
/**
 * The keys page rendered in jsdom from a filled query cache (no server): 1,000 keys listed, the
 * search narrows them, a column header sorts, state and Ready reason and the quota bar show.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFixture } from './key-fixture.js';
import { KeysPage } from './keys-page.js';

afterEach(cleanup);

const verbs = (allowed: boolean) => ({
  list: true,
  create: allowed,
  update: allowed,
  delete: allowed,
});

function renderWithKeys(count: number, options: { mayCreate?: boolean } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const items = Array.from({ length: count }, (_, index) =>
    keyFixture(
      index,
      index === 7
        ? { ready: { status: 'False', reason: 'GroupNotFound', message: 'no group' } }
        : {},
    ),
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

  it('lists 1,000 keys, searches and sorts them', () => {
    const { container } = renderWithKeys(1000);
    // Queries over 7,000 cells are slow in jsdom: they look inside the toolbar and the header.
    const bodyRows = () => container.querySelectorAll('tbody tr');
    const head = within(container.querySelector('thead') ?? container);
    const toolbar = within(container.querySelector('.toolbar') ?? container);
    expect(screen.getByText('1000 keys')).toBeTruthy();
    expect(bodyRows()).toHaveLength(1000);
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
    expect(bodyRows()[0]?.querySelector('th')?.textContent).toContain('key-0999');
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
});
