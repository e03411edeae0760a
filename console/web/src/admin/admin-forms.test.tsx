// @vitest-environment jsdom
/**
 * The administration pages rendered in jsdom from a filled query cache (no server): every field
 * labelled, rows added and removed, a refusal found before sending shown next to its field with the
 * input kept and nothing sent, an edited Upstream's credential never shown (only whether one is
 * set), and "not allowed" for a user RBAC does not let administer.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Access, AdminObject } from '../api/admin-api.js';
import { AccountFormPage } from './account-form-page.js';
import { AdminPages } from './admin-pages.js';
import { GroupFormPage } from './group-form-page.js';
import { UpstreamFormPage } from './upstream-form-page.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const object = (name: string, spec: Record<string, unknown>, namespace?: string): AdminObject => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: `uid-${name}-${namespace ?? ''}`,
  resourceVersion: '7',
  spec,
});

const verbs = (allowed: boolean) => ({
  list: allowed,
  create: allowed,
  update: allowed,
  delete: allowed,
});

function renderWith(ui: ReactNode, options: { access?: Access } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(['me'], {
    username: 'root',
    groups: ['platform'],
    method: 'local',
    csrfToken: 'token',
    expiresTime: '2030-01-01T00:00:00Z',
  });
  client.setQueryData(['admin', 'groups'], {
    items: [object('anthropic', { platform: 'Anthropic', rateMultiplier: 1 })],
  });
  client.setQueryData(['admin', 'upstreams'], {
    items: [
      object('main', {
        platform: 'Anthropic',
        baseURL: 'https://api.anthropic.com',
        credentials: { type: 'APIKey', apiKey: { secretRef: { name: 'main-key', key: 'apiKey' } } },
        maxConcurrentRequests: 12,
      }),
    ],
  });
  client.setQueryData(['admin', 'accounts'], {
    items: [object('default', { displayName: 'Team A', creditUSD: '100' }, 'team-a')],
  });
  client.setQueryData(['admin', 'plans'], {
    items: [object('pro', { displayName: 'Pro', limits: { dailyUSD: '20' } })],
  });
  client.setQueryData(
    ['access', ''],
    options.access ?? {
      administer: true,
      groups: verbs(true),
      upstreams: verbs(true),
      plans: verbs(true),
      accounts: verbs(true),
      keys: null,
      namespace: null,
    },
  );
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('group form', () => {
  it('labels every field, adds and removes upstream rows, and shows the label fields', () => {
    renderWith(<GroupFormPage />);
    for (const label of [
      'Name',
      'Platform',
      'Description',
      'Price multiplier',
      'Allowed models',
      'Input (USD / M tokens)',
      'Output (USD / M tokens)',
      'Cache read (USD / M tokens)',
      'Cache write 5 min (USD / M tokens)',
      'Cache write 1 h (USD / M tokens)',
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Add upstream' }));
    const row = screen.getByRole('group', { name: 'Upstream 1' });
    expect(within(row).getByLabelText('Weight')).toBeTruthy();
    expect(within(row).getByLabelText('Priority')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Remove upstream 1' }));
    expect(screen.queryByRole('group', { name: 'Upstream 1' })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Add upstream');
    expect(screen.queryByLabelText('Namespace labels')).toBeNull();
    fireEvent.click(screen.getByLabelText('Namespaces with labels'));
    expect(screen.getByLabelText('Namespace labels')).toBeTruthy();
    expect(screen.getByLabelText('Namespace expressions')).toBeTruthy();
  });

  it('shows a line it cannot read next to its field, keeps the input and sends nothing', () => {
    const send = vi.spyOn(globalThis, 'fetch');
    renderWith(<GroupFormPage />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'team-a' } });
    fireEvent.change(screen.getByLabelText('Platform'), { target: { value: 'Anthropic' } });
    fireEvent.click(screen.getByLabelText('Namespaces with labels'));
    const labels = screen.getByLabelText('Namespace labels');
    fireEvent.change(labels, { target: { value: 'team=a\nnot a label' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(labels.getAttribute('aria-invalid')).toBe('true');
    const described = labels.getAttribute('aria-describedby') ?? '';
    expect(described).not.toBe('');
    expect(document.getElementById(described.split(' ').at(-1) ?? '')?.textContent).toBe(
      'Line 2 ("not a label") is not key=value.',
    );
    expect((labels as HTMLTextAreaElement).value).toBe('team=a\nnot a label');
    expect(send).not.toHaveBeenCalled();
  });

  it('asks for a name and a platform before sending', () => {
    const send = vi.spyOn(globalThis, 'fetch');
    renderWith(<GroupFormPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Enter a name.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'g' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Choose a platform.')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
  });
});

describe('upstream form', () => {
  it('fills an edit from the spec, says a credential is set and never shows it', () => {
    renderWith(<UpstreamFormPage name="main" />);
    expect(screen.getByRole('heading', { name: 'Edit upstream main' })).toBeTruthy();
    expect(screen.getByText(/A credential is set \(Secret main-key\)/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('New API key').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('New API key').type).toBe('password');
    expect(screen.getByLabelText<HTMLSelectElement>('Platform').disabled).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Base URL').value).toBe(
      'https://api.anthropic.com',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Concurrent requests').value).toBe('12');
    // Chat Completions is an OpenAI setting only.
    expect(screen.queryByLabelText('Chat Completions')).toBeNull();
  });

  it('asks for Google OAuth values both together, next to the refresh token', () => {
    const send = vi.spyOn(globalThis, 'fetch');
    renderWith(<UpstreamFormPage />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'ag' } });
    fireEvent.change(screen.getByLabelText('Platform'), { target: { value: 'Antigravity' } });
    expect(screen.getByLabelText<HTMLSelectElement>('Credential type').value).toBe('GoogleOAuth');
    for (const label of ['Client ID', 'Token URL', 'Project ID', 'Secret name']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    fireEvent.change(screen.getByLabelText('Refresh token'), { target: { value: 'r' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('Refresh token').getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText('Enter both the refresh token and the client secret, or neither.'),
    ).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
  });
});

describe('account form and access', () => {
  it('fills an edit of an Account from its spec', () => {
    renderWith(<AccountFormPage namespace="team-a" />);
    expect(screen.getByRole('heading', { name: 'Edit account team-a' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Display name').value).toBe('Team A');
    expect(screen.getByLabelText<HTMLInputElement>('Credit (USD)').value).toBe('100');
    expect(screen.getByLabelText('Concurrent requests')).toBeTruthy();
  });

  it('tells a user who may not administer so, in plain words', () => {
    renderWith(<AdminPages />, {
      access: {
        administer: false,
        groups: { ...verbs(false), list: true },
        upstreams: verbs(false),
        plans: verbs(false),
        accounts: verbs(false),
        keys: null,
        namespace: null,
      },
    });
    expect(screen.getByRole('alert').textContent).toContain(
      'You are not allowed to administer this console',
    );
    expect(screen.queryByRole('link', { name: 'Create group' })).toBeNull();
  });
});
