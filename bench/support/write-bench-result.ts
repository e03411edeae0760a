/**
 * A benchmark's raw result, `bench/results/<date>T<time>-<name>.json` (ignored by git), then every
 * summary rebuilt (update-bench-summaries.ts). The facts say how to reproduce it and what the
 * figures were measured on: the command as run, when, at which commit, on which machine, under which
 * load (the load average when the run started and when it ended: other work on the machine skews
 * absolute figures, ratios to a baseline measured in the same run much less).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { updateBenchSummaries } from './update-bench-summaries.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const loadAverage = (): number[] => loadavg().map((value) => Math.round(value * 100) / 100);

/** The checked-out commit, `+changes` when the code differs from it; `unknown` outside git. */
function describeCommit(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    // Markdown is left out: a doc being edited does not change what is measured.
    const changed =
      git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!*.md') !== '';
    return `${git('rev-parse', '--short=12', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

export interface BenchRun {
  /** Writes the raw result and rebuilds the summaries; returns the result's path. */
  write(result: Record<string, unknown>): string;
}

/**
 * Starts a benchmark's run: call at its start (the facts hold the load average then), `write` at
 * its end. `script` is the benchmark's path from the repository root; the command is it with the
 * arguments this process was given.
 */
export function startBenchRun(name: string, script: string): BenchRun {
  const args = process.argv
    .slice(2)
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg}'`));
  const started = {
    command: ['npx tsx', script, ...args].join(' '),
    date: new Date().toISOString(),
    commit: describeCommit(),
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${String(availableParallelism())} CPUs`,
    node: process.version,
    loadAverageAtStart: loadAverage(),
  };
  return {
    write(result) {
      const facts = { ...started, loadAverageAtEnd: loadAverage() };
      const stamp = started.date.slice(0, 19).replaceAll(':', '-');
      const path = join(root, 'bench/results', `${stamp}-${name}.json`);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, `${JSON.stringify({ facts, ...result }, null, 2)}\n`);
      const written = relative(root, path);
      process.stderr.write(`bench: wrote ${written}\n`);
      for (const file of updateBenchSummaries()) process.stderr.write(`bench: wrote ${file}\n`);
      return written;
    },
  };
}
