/**
 * A benchmark's raw result, `bench/results/<date>T<time>-<name>.json` (ignored by git), with the
 * facts of its run (describe-bench-facts.ts) and the load average when it ended, then every
 * summary rebuilt (update-bench-summaries.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeBenchFacts } from './describe-bench-facts.js';
import { updateBenchSummaries } from './update-bench-summaries.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchRun {
  /** Writes the raw result and rebuilds the summaries; returns the result's path. */
  write(result: Record<string, unknown>): string;
}

/**
 * Starts a benchmark's run: call at its start (the facts hold the load average then), `write` at
 * its end. `script` is the benchmark's path from the repository root.
 */
export function startBenchRun(name: string, script: string): BenchRun {
  const started = describeBenchFacts(script);
  return {
    write(result) {
      const facts = {
        ...started,
        loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
      };
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
