/**
 * One bench request through an undici pool, timed from its intended send time: total latency, and
 * for streams the arrival offset of every server-sent event from the response head.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { BenchRequest } from './describe-bench-requests.js';

export interface TimedResult {
  name: string;
  status: number;
  /** Intended send time to the last body byte, ms. */
  latencyMs: number;
  /** `[event index, ms after the response head]` for streamed answers. */
  eventOffsets: [number, number][];
}

/** Counts event terminators (a blank line) across chunk boundaries; for timing only. */
export function countEventEnds(
  previousTail: string,
  chunk: string,
): { ends: number; tail: string } {
  const text = previousTail + chunk.replaceAll('\r\n', '\n');
  let ends = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf('\n\n', from);
    if (at === -1) break;
    ends += 1;
    from = at + 2;
  }
  return { ends, tail: text.slice(Math.max(from, text.length - 1)) };
}

export async function sendTimedRequest(options: {
  dispatcher: Dispatcher;
  request: BenchRequest;
  intendedMs: number;
}): Promise<TimedResult> {
  const { dispatcher, request, intendedMs } = options;
  const eventOffsets: [number, number][] = [];
  try {
    const response = await dispatcher.request({
      method: 'POST',
      path: request.path,
      headers: request.headers,
      body: request.body,
    });
    const headAt = performance.now();
    let tail = '';
    let events = 0;
    for await (const chunk of response.body) {
      if (!request.stream) continue;
      const counted = countEventEnds(tail, (chunk as Buffer).toString('utf8'));
      tail = counted.tail;
      const offset = performance.now() - headAt;
      for (let index = 0; index < counted.ends; index++) eventOffsets.push([events++, offset]);
    }
    return {
      name: request.name,
      status: response.statusCode,
      latencyMs: performance.now() - intendedMs,
      eventOffsets,
    };
  } catch {
    return {
      name: request.name,
      status: 0,
      latencyMs: performance.now() - intendedMs,
      eventOffsets,
    };
  }
}
