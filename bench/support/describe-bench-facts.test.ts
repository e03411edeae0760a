import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { describeBenchFacts } from './describe-bench-facts.js';

const argv = process.argv;
afterEach(() => {
  process.argv = argv;
});

describe('describeBenchFacts', () => {
  it('gives the command as run, its arguments quoted where a shell needs it', () => {
    process.argv = ['node', 'bench.ts', '--rates', '250,500', '--label', 'two words', 'x$y'];
    expect(describeBenchFacts('bench/macro/ledger-bench.ts').command).toBe(
      "npx tsx bench/macro/ledger-bench.ts --rates 250,500 --label 'two words' 'x$y'",
    );
  });

  it('names the checked-out commit, and the machine and its load', () => {
    const facts = describeBenchFacts('bench/macro/ledger-bench.ts');
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    expect(facts.commit).toMatch(new RegExp(`^${head}(\\+changes)?$`));
    expect(facts.machine).toMatch(/, \d+ CPUs$/);
    expect(facts.loadAverageAtStart).toHaveLength(3);
    expect(Number.isNaN(Date.parse(facts.date))).toBe(false);
    expect(facts.node).toBe(process.version);
  });
});
