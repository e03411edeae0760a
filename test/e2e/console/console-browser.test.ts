/**
 * The end-to-end tests' web app build: a folder whose JavaScript carries React's development build
 * (its `jsxDEV` calls) is named, so a build made under Vitest (NODE_ENV=test) is refused; the
 * production build passes. No browser here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { developmentChunks } from '../../support/console-browser.js';

let folder: string | undefined;
afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

function dist(files: Record<string, string>): string {
  folder = mkdtempSync(join(tmpdir(), 'tollgate-web-dist-'));
  mkdirSync(join(folder, 'assets'));
  for (const [name, text] of Object.entries(files))
    writeFileSync(join(folder, 'assets', name), text);
  return folder;
}

describe('the built web app', () => {
  it("names the chunks of React's development build", () => {
    const built = dist({
      'index-a.js': 'const e=jsxDEV("div",{children:"x"},void 0,!1);',
      'chart-b.js': 'const e=jsx("svg",{});',
      'index-a.css': '.jsxDEV{}',
    });
    expect(developmentChunks(built)).toEqual(['index-a.js']);
  });

  it('passes a production build', () => {
    const built = dist({ 'index-a.js': 'const e=jsx("div",{children:"x"});' });
    expect(developmentChunks(built)).toEqual([]);
  });
});
