/**
 * Every relative link in the README and docs/ leads somewhere: the file exists and, for a link
 * into a Markdown page, the heading its anchor names does too (GitHub's heading slugs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => slug(match[1] ?? '')));
}

/** `file: link` for each relative link that leads nowhere. */
function brokenLinks(file: string, markdown = readFileSync(join(root, file), 'utf8')): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1] ?? '';
    if (/^[a-z]+:/.test(link)) continue;
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? file : normalize(join(dirname(file), path));
    if (!existsSync(join(root, target))) broken.push(`${file}: ${link}`);
    else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
      broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  return broken;
}

describe('documentation links', () => {
  const files = ['README.md', ...markdownFiles('docs')];

  it('finds the pages, the command pages among them', () => {
    expect(files.map((file) => relative(root, join(root, file)))).toEqual(
      expect.arrayContaining(['docs/commands/local.md', 'docs/commands/gateway.md']),
    );
  });

  it('leads every relative link to a file and heading that exist', () => {
    expect(files.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it('tells a missing file and a missing heading from good links', () => {
    expect(slug('The usage endpoint: `GET /v1/usage`')).toBe('the-usage-endpoint-get-v1usage');
    const page = [
      '[a](commands/none.md) [b](commands/local.md#nope)',
      '[c](commands/local.md#logs-and-the-start-banner) [d](https://example.com/x)',
    ].join('\n');
    expect(brokenLinks('docs/page.md', page)).toEqual([
      'docs/page.md: commands/none.md',
      'docs/page.md: commands/local.md#nope (no such heading)',
    ]);
  });
});
