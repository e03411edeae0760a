/**
 * Calls the client closes before their response ends, seen from a real `run-gateway.ts` process at
 * `info`: each still gets its one access-log line and is counted in `tollgate_requests_total` and
 * `tollgate_request_duration_seconds`. Mid-stream, with the status it was sent (200); before the
 * upstream answered or half way through sending its body, as 499 (`TG_CLIENT_CLOSED`). A call that
 * ends normally is counted once.
 */
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLoggedGateway, waitFor, type LogLine } from './read-log-lines.js';
import { postMessage, type GatewayProcess } from './spawn-run-gateway.js';

let gateway: GatewayProcess;
let lines: () => LogLine[] = () => [];

/** The value of one series of the gateway's metrics page (0 when absent). */
async function scrape(series: string): Promise<number> {
  const page = await request(`http://127.0.0.1:${gateway.metricsPort}/metrics`);
  const text = await page.body.text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** The series' value once it reaches `expected` (the close is counted after the caller saw it). */
async function scrapeUntil(series: string, expected: number): Promise<number> {
  let value = await scrape(series);
  for (let attempt = 0; attempt < 40 && value < expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await scrape(series);
  }
  return value;
}

const REQUESTS_2XX = 'tollgate_requests_total{platform="Anthropic",status_class="2xx"}';
const REQUESTS_4XX = 'tollgate_requests_total{platform="Anthropic",status_class="4xx"}';
const DURATION_4XX =
  'tollgate_request_duration_seconds_count{platform="Anthropic",status_class="4xx"}';

/** The first `request closed by client` line after the first `from` lines. */
function closedLineAfter(from: number): Promise<LogLine> {
  return waitFor(
    () =>
      lines()
        .slice(from)
        .find((entry) => entry.msg === 'request closed by client'),
    'the closed call',
  );
}

beforeAll(async () => {
  ({ gateway, lines } = await startLoggedGateway('team-closed'));
}, 60_000);

afterAll(async () => {
  await gateway.stop();
});

it('logs and counts a stream the client closes half way, with the status it was sent', async () => {
  gateway.fake.setBehaviour({ chunks: 40, chunkGapMs: 100 });
  const before = await scrape(REQUESTS_2XX);
  const streamed = await postMessage(gateway, { stream: true });
  expect(streamed.statusCode).toBe(200);
  const id = String(streamed.headers['x-tollgate-request-id']);
  // Read the first frames, then go away.
  for await (const chunk of streamed.body) {
    if ((chunk as Buffer).toString('utf8').includes('content_block_delta')) break;
  }
  streamed.body.destroy();

  const line = await waitFor(() => lines().find((entry) => entry.reqId === id), 'the closed call');
  expect(line).toMatchObject({
    msg: 'request closed by client',
    res: { statusCode: 200 },
    code: 'TG_CLIENT_CLOSED',
  });
  expect(line.responseTime).toBeGreaterThan(0);
  expect(await scrapeUntil(REQUESTS_2XX, before + 1)).toBe(before + 1);
  expect(lines().filter((entry) => entry.reqId === id)).toHaveLength(1);
});

it('logs and counts a call closed before the upstream answered as 499', async () => {
  gateway.fake.setBehaviour({ firstByteDelayMs: 1_500 });
  const before = { requests: await scrape(REQUESTS_4XX), durations: await scrape(DURATION_4XX) };
  const upstreamCalls = gateway.fake.requests.length;
  const controller = new AbortController();
  const call = request(`http://127.0.0.1:${gateway.port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gateway.apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    }),
    signal: controller.signal,
  });
  await waitFor(
    () => (gateway.fake.requests.length > upstreamCalls ? true : undefined),
    'the upstream call',
  );
  const arrivedLines = lines().length;
  controller.abort();
  await expect(call).rejects.toThrow();

  const line = await closedLineAfter(arrivedLines);
  expect(line).toMatchObject({ res: { statusCode: 499 }, code: 'TG_CLIENT_CLOSED' });
  expect(await scrapeUntil(REQUESTS_4XX, before.requests + 1)).toBe(before.requests + 1);
  expect(await scrapeUntil(DURATION_4XX, before.durations + 1)).toBe(before.durations + 1);
});

it('logs and counts a call closed half way through its body as 499, logging no error', async () => {
  const before = await scrape(REQUESTS_4XX);
  const upstreamCalls = gateway.fake.requests.length;
  const arrivedLines = lines().length;
  const socket = connect(gateway.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    'POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
      `content-length: 1000\r\nx-api-key: ${gateway.apiKey}\r\n\r\n{"model":"claude-`,
  );
  // The key is checked at the head; the body is being read when the client goes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.destroy();

  const line = await closedLineAfter(arrivedLines);
  expect(line).toMatchObject({ res: { statusCode: 499 }, code: 'TG_CLIENT_CLOSED' });
  expect(await scrapeUntil(REQUESTS_4XX, before + 1)).toBe(before + 1);
  expect(
    lines()
      .slice(arrivedLines)
      .filter((entry) => entry.level >= 50),
  ).toEqual([]);
  expect(gateway.fake.requests.length).toBe(upstreamCalls);
});

it('counts a call that ends normally once', async () => {
  gateway.fake.setBehaviour({});
  const before = await scrape(REQUESTS_2XX);
  const answered = await postMessage(gateway, { stream: true });
  await answered.body.text();
  const id = String(answered.headers['x-tollgate-request-id']);
  const line = await waitFor(() => lines().find((entry) => entry.reqId === id), 'the call');
  expect(line.msg).toBe('request completed');
  // The response's close comes after its end: give it the time to count a second time if it would.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await scrape(REQUESTS_2XX)).toBe(before + 1);
  expect(lines().filter((entry) => entry.reqId === id)).toHaveLength(1);
});
