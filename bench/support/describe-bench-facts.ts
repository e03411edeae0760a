/**
 * What a raw result records of its run, so its figures can be reproduced and weighed: the command
 * (the script with this process's arguments), the date, the commit (`+changes` when the code
 * differs from it), the machine, Node's version and the load average when the run started (other
 * work on the machine skews absolute figures; ratios to a baseline measured in the same run, much
 * less).
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchFacts {
  command: string;
  date: string;
  commit: string;
  machine: string;
  node: string;
  loadAverageAtStart: number[];
}

/** The checked-out commit, `+changes` when the code differs from it; `unknown` outside git. */
function describeCommit(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    // Docs and the summaries the runs rewrite are left out: they do not change what is measured.
    const changed =
      git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!*.md', ':!bench/summaries')
        .length > 0;
    return `${git('rev-parse', '--short=12', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** `script` is the benchmark's path from the repository root. */
export function describeBenchFacts(script: string): BenchFacts {
  const args = process.argv
    .slice(2)
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg}'`));
  return {
    command: ['npx tsx', script, ...args].join(' '),
    date: new Date().toISOString(),
    commit: describeCommit(),
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${String(availableParallelism())} CPUs`,
    node: process.version,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}
