/**
 * The three ways the load generator drives a target: open loop (constant arrival rate, latency from
 * the intended send time), closed loop (fixed concurrency, each caller waits for its answer; the
 * cross-check and the saturation probe), and holding many long streams open at once.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import {
  describeBenchRequest,
  kindAt,
  type BenchCredentials,
  type BenchRequestKind,
} from './describe-bench-requests.js';
import { percentile, sortAscending } from './compute-percentiles.js';
import { dueCount, intendedSendTime, scheduleLength } from './plan-open-loop-schedule.js';
import { sendTimedRequest, type TimedResult } from './send-timed-request.js';

export interface LoadTarget {
  dispatcher: Dispatcher;
  kinds: readonly BenchRequestKind[];
  credentials: BenchCredentials;
}

export interface LoadResult {
  sent: number;
  durationMs: number;
  /** Latencies (ms) of answers with status 200, by request name. */
  latencies: Record<string, number[]>;
  /** Failed requests by status (0: transport error). */
  errors: Record<string, number>;
  /** `[event index, ms after the response head]` of streamed answers, by request name. */
  eventOffsets: Record<string, [number, number][]>;
  /**
   * Open loop: how late the sender dispatched calls after their intended time (ms). Calls sent
   * late reach the server together, so a late sender shows as groups of arrivals.
   */
  sendLate?: { p99Ms: number; maxMs: number };
}

function collect(results: readonly TimedResult[], durationMs: number): LoadResult {
  const out: LoadResult = {
    sent: results.length,
    durationMs,
    latencies: {},
    errors: {},
    eventOffsets: {},
  };
  for (const result of results) {
    if (result.status !== 200) {
      out.errors[result.status] = (out.errors[result.status] ?? 0) + 1;
      continue;
    }
    (out.latencies[result.name] ??= []).push(result.latencyMs);
    if (result.eventOffsets.length > 0) {
      const list = (out.eventOffsets[result.name] ??= []);
      for (const pair of result.eventOffsets) list.push(pair);
    }
  }
  return out;
}

export async function runOpenLoop(
  target: LoadTarget,
  options: { rate: number; durationMs: number },
): Promise<LoadResult> {
  const schedule = {
    rate: options.rate,
    durationMs: options.durationMs,
    startMs: performance.now(),
  };
  const total = scheduleLength(schedule);
  const pending: Promise<TimedResult>[] = [];
  const lateMs: number[] = [];
  while (pending.length < total) {
    const due = dueCount(schedule, performance.now());
    for (let index = pending.length; index < due; index++) {
      const request = describeBenchRequest(kindAt(target.kinds, index), target.credentials);
      const intendedMs = intendedSendTime(schedule, index);
      lateMs.push(performance.now() - intendedMs);
      pending.push(sendTimedRequest({ dispatcher: target.dispatcher, request, intendedMs }));
    }
    if (pending.length < total) {
      await sleep(Math.max(0, intendedSendTime(schedule, pending.length) - performance.now()));
    }
  }
  const results = await Promise.all(pending);
  const late = sortAscending(lateMs);
  return {
    ...collect(results, performance.now() - schedule.startMs),
    sendLate: { p99Ms: percentile(late, 0.99), maxMs: late.at(-1) ?? Number.NaN },
  };
}

export async function runClosedLoop(
  target: LoadTarget,
  options: { concurrency: number; durationMs: number },
): Promise<LoadResult> {
  const started = performance.now();
  const deadline = started + options.durationMs;
  const results: TimedResult[] = [];
  let counter = 0;
  const caller = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const request = describeBenchRequest(kindAt(target.kinds, counter++), target.credentials);
      const sentAt = performance.now();
      results.push(
        await sendTimedRequest({ dispatcher: target.dispatcher, request, intendedMs: sentAt }),
      );
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  return collect(results, performance.now() - started);
}

/** Opens `streams` streamed calls spread over `rampMs` and waits until they all end. */
export async function holdStreams(
  target: LoadTarget,
  options: { streams: number; rampMs: number },
): Promise<LoadResult> {
  const started = performance.now();
  const streamed = target.kinds.filter((kind) => kind.stream);
  const pending: Promise<TimedResult>[] = [];
  for (let index = 0; index < options.streams; index++) {
    const request = describeBenchRequest(kindAt(streamed, index), target.credentials);
    const intendedMs = started + (index * options.rampMs) / options.streams;
    await sleep(Math.max(0, intendedMs - performance.now()));
    pending.push(sendTimedRequest({ dispatcher: target.dispatcher, request, intendedMs }));
  }
  const results = await Promise.all(pending);
  return collect(results, performance.now() - started);
}
