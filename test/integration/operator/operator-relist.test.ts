/**
 * Watches that end and come back after their resourceVersion left the server's window get 410
 * Gone; the informers must relist and keep reconciling (memory store).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningOperator } from '../../../operator/start-operator.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

let harness: Harness;
let operator: RunningOperator;

beforeAll(async () => {
  harness = await startHarness({ watch: { window: 3, timeoutMs: 700 } });
  operator = await harness.startOperator('relister');
  await waitFor('leadership', () => Promise.resolve(operator.isLeader() || undefined));
});

afterAll(async () => {
  await harness.close();
});

it('relists after 410 Gone and still sees new objects', async () => {
  const secrets = Array.from(
    { length: 12 },
    (_, index) => `apiVersion: v1
kind: Secret
metadata: { name: filler-${index}, namespace: default }
stringData: { value: "${index}" }
`,
  ).join('---\n');
  await harness.apply(secrets);
  // Let every watch time out at least once and resume from a version now outside the window.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await harness.apply(`
apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: { name: after-gone, namespace: default }
spec: { displayName: after gone }
`);
  const reason = await waitFor('the new key to be reconciled', async () => {
    const object = await harness.getJson<{
      status?: { conditions?: { type: string; reason: string }[] };
    }>(['apikey', 'after-gone', '-n', 'default']);
    return object.status?.conditions?.find((condition) => condition.type === 'Ready')?.reason;
  });
  expect(reason).toBe('NoGroup');
  const text = await operator.metrics.registry.metrics();
  expect(text).toMatch(/tollgate_operator_lists_total\{kind="ApiKey"\} [2-9]/);
  expect(text).toMatch(
    /tollgate_operator_watch_events_total\{kind="Secret",type="add"\} (1[2-9]|[2-9]\d)/,
  );
});
