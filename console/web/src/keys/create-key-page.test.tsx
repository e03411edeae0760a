// @vitest-environment jsdom
/**
 * The create-key form rendered in jsdom from a filled query cache (no server): labelled fields,
 * the group's platform and multiplier, live validation of the own value and of each address line,
 * and nothing is sent while a field is wrong.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CreateKeyPage } from './create-key-page.js';

afterEach(cleanup);

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(['accounts'], {
    items: [
      { namespace: 'demo', displayName: 'Demo', hasAccount: true },
      { namespace: 'team-b', displayName: null, hasAccount: true },
    ],
  });
  client.setQueryData(
    ['groups'],
    [
      { name: 'anthropic', platform: 'Anthropic', rateMultiplier: 1 },
      { name: 'openai-cheap', platform: 'OpenAI', rateMultiplier: 0.5 },
    ],
  );
  const me = {
    username: 'alice',
    groups: ['team-b'],
    method: 'local' as const,
    csrfToken: 'token',
    expiresTime: '2030-01-01T00:00:00Z',
  };
  render(
    <QueryClientProvider client={client}>
      <CreateKeyPage namespace="demo" me={me} />
    </QueryClientProvider>,
  );
  return client;
}

describe('create key form', () => {
  it('labels every field and shows the chosen group platform and multiplier', () => {
    renderForm();
    for (const label of [
      'Account',
      'Name',
      'Group',
      'Key value',
      'Quota (USD)',
      '5-hour cap (USD)',
      'Daily cap (USD)',
      '7-day cap (USD)',
      'Allowed addresses',
      'Denied addresses',
      'Enabled',
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'openai-cheap' } });
    expect(screen.getByText('Platform OpenAI · price multiplier ×0.5')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Valid for a period'));
    fireEvent.click(screen.getByRole('button', { name: '7 days' }));
    expect(screen.getByLabelText<HTMLInputElement>('Valid for (days)').value).toBe('7');
  });

  it('checks the own value as it is typed and the address lines when left', () => {
    renderForm();
    const value = screen.getByLabelText('Key value');
    fireEvent.change(value, { target: { value: 'abc' } });
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/At least 16 characters \(now 3\)/)).toBeTruthy();
    fireEvent.change(value, { target: { value: 'abcdefghijklmnop' } });
    expect(value.getAttribute('aria-invalid')).toBe('false');

    const allow = screen.getByLabelText('Allowed addresses');
    fireEvent.change(allow, { target: { value: '10.0.0.0/8\n10.0.0.0/40' } });
    expect(screen.getByText(/Line 2 \("10.0.0.0\/40"\)/)).toBeTruthy();
  });

  it('takes any text as the name and shows the object name made of it, chosen under Advanced', () => {
    renderForm();
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'Équipe données 数据 team' } });
    expect(name.getAttribute('aria-invalid')).toBe('false');
    expect(
      screen.getByText(
        /^Any text, up to 200 characters\. Object name: equipe-donnees-team-[a-z0-9]{5}$/,
      ),
    ).toBeTruthy();
    const advanced = screen.getByText('Advanced').closest('details');
    expect(advanced?.open).toBe(false);
    const objectName = screen.getByLabelText<HTMLInputElement>('Object name');
    expect(objectName.placeholder).toMatch(/^equipe-donnees-team-[a-z0-9]{5}$/);
    fireEvent.change(objectName, { target: { value: 'team-data' } });
    expect(screen.getByText(/Object name: team-data$/)).toBeTruthy();
    fireEvent.change(objectName, { target: { value: 'Team Data' } });
    fireEvent.blur(objectName);
    expect(screen.getByText(/^Use lowercase letters, digits and "-"/)).toBeTruthy();
  });

  it('sends nothing while fields are wrong and says which', () => {
    const client = renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Give the key a name.')).toBeTruthy();
    expect(screen.getByText('Choose a group: it decides the platform and price.')).toBeTruthy();
    expect(screen.getByText('Fix the fields marked above, then create the key.')).toBeTruthy();
    expect(client.getMutationCache().getAll()).toHaveLength(0);
  });
});
