/**
 * `node --expose-gc --import tsx test/integration/local-stack/measure-simulator-heap.ts [calls] [prompt bytes]`:
 * the in-process simulator as `tollgate local` starts it, sent `calls` Anthropic calls (half of
 * them streamed) each with a prompt of `prompt bytes`, eight at a time. Prints one JSON line: the
 * heap used after a full garbage collection before the calls (after a few warm-up calls) and after
 * them, in MB. Local mode runs the simulator inside the gateway's process, so whatever the
 * simulator keeps of its calls is the gateway's memory. Used by `simulator-heap-soak.test.ts`.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSnapshot } from 'node:v8';
import { request } from 'undici';
import { startDemoSimulator } from '../../../local/start-demo-world.js';

const [callsText = '200', promptText = '1000000'] = process.argv.slice(2);
const calls = Number(callsText);
const prompt = 'x'.repeat(Number(promptText));
const CONCURRENCY = 8;

const collect = globalThis.gc;
if (collect === undefined) throw new Error('run with --expose-gc');

/**
 * The heap used after V8's most thorough collection, the one a heap snapshot starts with. A plain
 * `gc()` leaves garbage that only that collection frees (caches V8 clears on it alone): measured
 * here, 200 calls left 17 to 40 MB after two `gc()` rounds and 0 after the snapshot's collection,
 * which made the figure depend on when the last collection ran rather than on what is kept.
 */
async function heapAfterCollectionMb(): Promise<number> {
  // A turn of the loop first: sockets and streams closed by the calls release what they hold on
  // their close callbacks.
  await sleep(50);
  collect?.({ execution: 'sync', type: 'major' });
  const snapshot = getHeapSnapshot();
  snapshot.resume();
  await once(snapshot, 'end');
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
}

const simulator = await startDemoSimulator('127.0.0.1', 0);

async function call(index: number): Promise<void> {
  const response = await request(`${simulator.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'any' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      stream: index % 2 === 1,
      messages: [{ role: 'user', content: `${index} ${prompt}` }],
    }),
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`call ${index}: status ${response.statusCode}`);
}

async function send(count: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await call(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

try {
  await send(CONCURRENCY);
  const baselineMb = await heapAfterCollectionMb();
  await send(calls);
  const afterMb = await heapAfterCollectionMb();
  process.stdout.write(
    `${JSON.stringify({ calls, promptBytes: prompt.length, baselineMb, afterMb })}\n`,
  );
} finally {
  await simulator.close();
}
