/**
 * No import cycles in the tree: every `.ts` and `.tsx` file's relative imports (type imports and
 * `import()` included, as TypeScript's pre-processor reads them), with the cycles found listed by
 * their files. A cycle of type imports only costs nothing at run time, but it ties two files
 * together all the same, so it counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.tollgate', '.git']);

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Each file's imports of other files in the tree, by repo-relative path. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const targets = ts
        .preProcessFile(text, true, true)
        .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
        .map(({ fileName }) => path.posix.join(path.posix.dirname(file), fileName))
        .flatMap((target) => {
          const base = target.replace(/\.js$/, '');
          return [`${base}.ts`, `${base}.tsx`].filter((candidate) => known.has(candidate));
        });
      return [file, targets];
    }),
  );
}

/** The graph's strongly connected groups of more than one file (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) ?? 0);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) visit(target);
      if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

it('no file imports, directly or through others, a file that imports it', () => {
  const files = sourceFiles('.');
  expect(files.length).toBeGreaterThan(500);
  expect(cycles(importGraph(files))).toEqual([]);
});
