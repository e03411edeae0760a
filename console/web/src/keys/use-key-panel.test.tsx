// @vitest-environment jsdom
/**
 * "Use this key" in jsdom from the server's own generator: each tool says which blocks go
 * together and which are alternatives, and the CC Switch import warns when its usage display
 * cannot reach a plain-HTTP gateway on another machine.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateClientConfig } from '../../../server/client-config/generate-client-config.js';
import { UseKeyPanel } from './use-key-panel.js';

afterEach(cleanup);

const WARNING = /CC Switch shows the key's usage only from an HTTPS gateway/;

function renderPanel(options: { platform: 'OpenAI' | 'Gemini'; gatewayUrl: string }) {
  const config = generateClientConfig({ ...options, keyValue: null, keyName: 'Équipe 数据' });
  render(<UseKeyPanel config={config} />);
  return screen.getByRole('region', { name: 'Use this key' });
}

describe('Use this key', () => {
  it('Codex: the file and the variable are both needed; the shells are one of two', () => {
    const panel = renderPanel({ platform: 'OpenAI', gatewayUrl: 'https://gw.example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Codex CLI' }));
    const steps = [...panel.querySelectorAll('ol.setup-steps > li > p:first-child')];
    expect(steps.map((step) => step.textContent)).toEqual([
      'Write this file and set the environment variable (both are needed):',
      'Set TOLLGATE_API_KEY in your shell, with one of:',
      'Try it:',
    ]);
    const shells = panel.querySelectorAll('ol.setup-steps > li')[1];
    expect([...(shells?.children ?? [])].map((child) => child.textContent.slice(0, 24))).toEqual([
      'Set TOLLGATE_API_KEY in ',
      'Shell (POSIX: bash, zsh)',
      'or',
      'PowerShellCopy$env:TOLLG',
    ]);
    expect(panel.textContent).toContain('put it where <your-tollgate-key> stands');
    expect(screen.queryByText(WARNING)).toBeNull();
  });

  it('Gemini CLI: settings.json always, then .env or the variables', () => {
    const panel = renderPanel({ platform: 'Gemini', gatewayUrl: 'http://127.0.0.1:8080' });
    const items = [...panel.querySelectorAll('ol.setup-steps > li')];
    expect(items[0]?.textContent).toContain('~/.gemini/settings.json');
    expect(items[0]?.textContent).not.toContain('~/.gemini/.env');
    expect(items[1]?.textContent).toMatch(/^Either write this file:~\/\.gemini\/\.env/);
    expect(items[1]?.textContent).toContain('or set the same settings as environment variables');
    expect(screen.getByRole('link', { name: 'Import into CC Switch' })).toBeTruthy();
    // The gateway is on this machine: CC Switch reads its usage over plain HTTP.
    expect(screen.queryByText(WARNING)).toBeNull();
  });

  it('warns next to the CC Switch import of a plain-HTTP gateway on another machine', () => {
    renderPanel({ platform: 'Gemini', gatewayUrl: 'http://10.0.0.5:8080' });
    const warning = screen.getByText(WARNING);
    expect(warning.closest('.cc-switch')?.querySelector('a')?.textContent).toBe(
      'Import into CC Switch',
    );
  });
});
