/**
 * Key usage in `.status` is at most one refresh interval behind the spend. A key created just after
 * a refresh round has its usage read once on creation; a guard on the time of that read skipped the
 * next round (less than one interval later), so a call made right after creation showed up only
 * after two intervals. Here a key is created right after a round (seen on another key), called at
 * once, then called again right after each update; every update must come within one interval.
 * The figures are followed with `kubectl get --watch`, so when a change is seen is not a polling
 * artefact.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startExampleStack, type ExampleStack } from './example-stack.js';

const refreshMs = 3_000;
const rounds = 3;
/** Writing the status and the watch event, on a busy machine. */
const marginMs = 1_000;

let examples: ExampleStack;
let aliceKey = '';

beforeAll(async () => {
  examples = await startExampleStack({ usageRefreshMs: refreshMs });
  aliceKey = await examples.readSecret({ namespace: 'team-a', name: 'alice-key', key: 'apiKey' });
  await eventually(
    () => examples.kubectl(['get', 'apikey', 'alice', '-n', 'team-a']),
    (table) => /\bTrue\s+Active\b/.test(table),
  );
}, 90_000);

afterAll(async () => {
  await examples.close();
});

/** `kubectl get -w` on a key's used USD: each new value with the time it arrived. */
function watchUsedUSD(kubeconfig: string, name: string) {
  const child = spawn(
    'kubectl',
    [
      '--kubeconfig',
      kubeconfig,
      'get',
      'apikey',
      name,
      '-n',
      'team-a',
      '--watch',
      '-o',
      'jsonpath={.status.usage.usedUSD}{"\\n"}',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const seen: { value: string; at: number }[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const value of lines) {
      if (value !== '' && value !== seen.at(-1)?.value) seen.push({ value, at: Date.now() });
    }
  });
  return {
    seen,
    /** The first value after `count` values, waiting at most three intervals. */
    next: async (count: number) => {
      const deadline = Date.now() + 3 * refreshMs + 5_000;
      while (seen.length <= count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return seen[count];
    },
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const freshKey = `apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: {name: fresh, namespace: team-a}
spec: {displayName: Fresh, groupName: anthropic}
`;

describe('usage refresh', () => {
  it(
    'shows each charged call in .status within one refresh interval, from the first',
    async () => {
      const kubeconfig = examples.stack.local.kubeconfigPath;
      const call = async (apiKey: string, text: string): Promise<number> => {
        const client = new Anthropic({ apiKey, baseURL: examples.stack.gatewayUrl, maxRetries: 0 });
        await client.messages.create({
          model: 'claude-sonnet-4-5',
          max_tokens: 16,
          messages: [{ role: 'user', content: text }],
        });
        return Date.now();
      };
      // A refresh round has just run when alice's new figures arrive.
      const alice = watchUsedUSD(kubeconfig, 'alice');
      try {
        expect(await alice.next(0)).toBeDefined();
        await call(aliceKey, 'align');
        expect(await alice.next(1)).toBeDefined();
      } finally {
        await alice.stop();
      }
      await examples.kubectl(['apply', '-f', '-'], freshKey);
      const fresh = watchUsedUSD(kubeconfig, 'fresh');
      try {
        const key = await examples.readSecret({
          namespace: 'team-a',
          name: 'fresh-key',
          key: 'apiKey',
        });
        expect(await fresh.next(0)).toMatchObject({ value: '0' });
        const lags: number[] = [];
        for (let round = 1; round <= rounds; round += 1) {
          const called = await call(key, `round ${round}`);
          const update = await fresh.next(round);
          expect(update, `usage after call ${round}`).toBeDefined();
          lags.push((update?.at ?? Infinity) - called);
        }
        // A skipped round would add a whole interval.
        for (const lag of lags) expect(lag).toBeLessThan(refreshMs + marginMs);
        const values = fresh.seen.map((item) => Number(item.value));
        expect(values).toEqual([...values].sort((a, b) => a - b));
      } finally {
        await fresh.stop();
      }
    },
    (rounds + 4) * 3 * refreshMs,
  );
});
