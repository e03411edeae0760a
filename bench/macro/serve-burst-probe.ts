/**
 * Child process of `burst-start-bench.ts`: the probe client, in a process of its own so that the
 * burst's 200 MB of uploads and 200 streams (sent by the bench's process) do not delay it. On
 * `start` it sends a small Anthropic call every `everyMs` through the gateway (open loop: each
 * call is sent on time, whatever the earlier ones do); on `stop` it answers every call's send time
 * (epoch ms), latency and status, and its own event loop's largest stall.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';

interface Start {
  type: 'start';
  url: string;
  key: string;
  everyMs: number;
}

const agent = new Agent();
const ownDelay = monitorEventLoopDelay({ resolution: 5 });
const probes: Promise<{ at: number; ms: number; status: number }>[] = [];
let timer: NodeJS.Timeout | undefined;

async function probeOnce(start: Start) {
  const at = Date.now();
  try {
    const response = await request(`${start.url}/v1/messages`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-api-key': start.key },
      body: '{"model":"claude-sonnet-4-6","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}',
    });
    await response.body.text();
    return { at, ms: Date.now() - at, status: response.statusCode };
  } catch {
    return { at, ms: Date.now() - at, status: 0 };
  }
}

process.on('message', (message: Start | { type: 'stop' }) => {
  if (message.type === 'start') {
    ownDelay.enable();
    timer = setInterval(() => probes.push(probeOnce(message)), message.everyMs);
    process.send?.({ type: 'started' });
    return;
  }
  clearInterval(timer);
  void Promise.all(probes).then((samples) => {
    ownDelay.disable();
    process.send?.({ type: 'samples', samples, ownLoopDelayMaxMs: ownDelay.max / 1e6 });
  });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
