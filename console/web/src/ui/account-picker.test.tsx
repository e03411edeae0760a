// @vitest-environment jsdom
/**
 * The Account picker against stubbed console API answers: namespaces with an Account for everyone;
 * for an administrator, the others in a "Without an Account" group and a link that creates the
 * chosen one's Account (the admin form, the namespace filled in).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Access, Verbs } from '../api/admin-api.js';
import type { AccountView } from '../api/console-api.js';
import { stubConsoleFetch } from '../../test-support/stub-console-fetch.js';
import { AccountPicker, pickerGroups } from './account-picker.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const view = (namespace: string, hasAccount: boolean): AccountView => ({
  namespace,
  displayName: hasAccount ? `Team ${namespace}` : null,
  creditUSD: null,
  spentUSD: null,
  balanceUSD: null,
  hasAccount,
});

const ACCOUNTS = [
  view('alpha', true),
  view('beta', false),
  view('gamma', true),
  view('delta', false),
];

const verbs = (allowed: boolean): Verbs => ({
  list: allowed,
  create: allowed,
  update: allowed,
  delete: allowed,
});

function renderPicker(options: { administer: boolean; value: string }) {
  const access: Access = {
    administer: options.administer,
    groups: verbs(options.administer),
    upstreams: verbs(options.administer),
    plans: verbs(options.administer),
    accounts: verbs(options.administer),
    keys: null,
    namespace: null,
  };
  stubConsoleFetch({
    'GET /accounts': () => ({ items: ACCOUNTS }),
    'GET /me/access': () => access,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AccountPicker value={options.value} onChange={() => undefined} />
    </QueryClientProvider>,
  );
}

const optionTexts = (parent: HTMLElement) =>
  within(parent)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('account picker', () => {
  it('groups the namespaces: with an Account, and the others for administrators only', () => {
    expect(pickerGroups(ACCOUNTS, { value: 'alpha', administer: false })).toEqual({
      withAccount: [ACCOUNTS[0], ACCOUNTS[2]],
      withoutAccount: [],
    });
    // The namespace shown stays listed, or the picker would name another.
    expect(pickerGroups(ACCOUNTS, { value: 'beta', administer: false }).withoutAccount).toEqual([
      ACCOUNTS[1],
    ]);
    expect(pickerGroups(ACCOUNTS, { value: 'alpha', administer: true }).withoutAccount).toEqual([
      ACCOUNTS[1],
      ACCOUNTS[3],
    ]);
  });

  it('lists only namespaces that have an Account to a user who does not administer', async () => {
    renderPicker({ administer: false, value: 'alpha' });
    const select = await screen.findByRole('combobox', { name: 'Account' });
    await waitFor(() => {
      expect(optionTexts(select)).toEqual(['Team alpha', 'Team gamma']);
    });
    expect(select.querySelector('optgroup')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows an administrator the others apart, and how to create the chosen one', async () => {
    renderPicker({ administer: true, value: 'beta' });
    const select = await screen.findByRole('combobox', { name: 'Account' });
    const group = await waitFor(() => {
      const found = select.querySelector('optgroup');
      if (found === null) throw new Error('no group yet');
      return found;
    });
    expect(group.getAttribute('label')).toBe('Without an Account');
    expect(optionTexts(group)).toEqual(['beta (keys are refused)', 'delta (keys are refused)']);
    expect(optionTexts(select).slice(0, 2)).toEqual(['Team alpha', 'Team gamma']);
    const create = screen.getByRole('link', { name: 'Create the Account of beta' });
    expect(create.getAttribute('href')).toBe('/admin/accounts/new?namespace=beta');
  });
});
