/**
 * The gateway's access log, read from a real `run-gateway.ts` process at `info`: one line per call,
 * written when it completes, with the request id the caller was given, method, URL, status,
 * duration and, for a refused call, Tollgate's error code; no line when a request arrives, and
 * never a key value (not even one sent in a `key` query parameter).
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLoggedGateway, waitFor, type LogLine } from './read-log-lines.js';
import { postMessage, type GatewayProcess } from './spawn-run-gateway.js';

let gateway: GatewayProcess;
let lines: () => LogLine[] = () => [];
let output: () => string = () => '';

beforeAll(async () => {
  ({ gateway, lines, output } = await startLoggedGateway('team-log'));
}, 60_000);

afterAll(async () => {
  await gateway.stop();
});

it('writes one line per call when it completes, with its id, status and refusal code, and no key', async () => {
  const { port, apiKey } = gateway;
  const answered = await postMessage(gateway);
  expect(answered.statusCode).toBe(200);
  await answered.body.text();
  const answeredId = String(answered.headers['x-tollgate-request-id']);

  // The Anthropic key sent where Gemini clients send theirs: refused, and logged without it.
  const refused = await request(
    `http://127.0.0.1:${port}/v1beta/models/gemini-2.5-flash:generateContent?alt=json&key=${apiKey}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    },
  );
  const refusedBody = await refused.body.text();
  expect(refused.statusCode).toBeGreaterThanOrEqual(400);
  const refusedId = String(refused.headers['x-tollgate-request-id']);

  const answeredLine = await waitFor(
    () => lines().find((line) => line.reqId === answeredId),
    'the answered call',
  );
  const refusedLine = await waitFor(
    () => lines().find((line) => line.reqId === refusedId),
    'the refused call',
  );
  expect(answeredLine).toMatchObject({
    level: 30,
    msg: 'request completed',
    req: { method: 'POST', url: '/v1/messages' },
    res: { statusCode: 200 },
  });
  expect(answeredLine.responseTime).toBeGreaterThan(0);
  expect(answeredLine.code).toBeUndefined();
  expect(refusedLine).toMatchObject({
    msg: 'request completed',
    req: {
      method: 'POST',
      url: '/v1beta/models/gemini-2.5-flash:generateContent?alt=json&key=[redacted]',
    },
    res: { statusCode: refused.statusCode },
  });
  expect(refusedLine.code).toMatch(/^TG_/);
  expect(refusedBody).toContain(refusedLine.code);

  // One line per call: none when a request arrives.
  for (const id of [answeredId, refusedId]) {
    expect(lines().filter((line) => line.reqId === id)).toHaveLength(1);
  }
  expect(output()).not.toContain('incoming request');
  expect(output()).not.toContain(apiKey);
});
