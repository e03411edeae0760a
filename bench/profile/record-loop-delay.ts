/**
 * Records this process's event-loop delay between two IPC messages (`loop-delay-start`,
 * `loop-delay-stop`) and answers the percentiles in ms (`loop-delay`), so a latency tail can be
 * told apart from stalls of the event loop. Used by the one-worker bench gateway, which also
 * reports every call's duration as the gateway saw it (`recordCallDuration`: from the request's
 * arrival in fastify to the end of its response, and the wait for the upstream's response head,
 * whole ms); the answer gives their percentiles beside the loop's (`calls`, `upstream`), so a tail
 * the client sees can be told apart from one inside the gateway, and one of the upstream's.
 */
import {
  createHistogram,
  monitorEventLoopDelay,
  type IntervalHistogram,
  type RecordableHistogram,
} from 'node:perf_hooks';

let calls: RecordableHistogram | null = null;
let upstream: RecordableHistogram | null = null;

/** A call's duration and its wait for the upstream's head (null: none) in ms, while recording. */
export function recordCallDuration(ms: number, upstreamMs: number | null): void {
  calls?.record(Math.max(1, Math.round(ms * 1e6)));
  if (upstreamMs !== null) upstream?.record(Math.max(1, Math.round(upstreamMs * 1e6)));
}

/** The loop histogram's timer interval (ms): each of its values is the time between two firings. */
const LOOP_RESOLUTION_MS = 1;

/** Percentiles in ms, less `offsetMs` (never below 0). */
function percentiles(histogram: IntervalHistogram | RecordableHistogram, offsetMs = 0) {
  const ms = (nanoseconds: number): number =>
    Math.max(0, Math.round(nanoseconds / 1e4 - offsetMs * 100) / 100);
  return {
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    p999: ms(histogram.percentile(99.9)),
    max: ms(histogram.max),
  };
}

function summary(histogram: RecordableHistogram | null) {
  return histogram === null || histogram.count === 0 ? null : percentiles(histogram);
}

export function answerLoopDelayRequests(): void {
  let histogram: IntervalHistogram | null = null;
  process.on('message', (message: { type?: unknown }) => {
    if (message.type === 'loop-delay-start') {
      histogram?.disable();
      histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
      histogram.enable();
      calls = createHistogram();
      upstream = createHistogram();
      process.send?.({ type: 'loop-delay-started' });
      return;
    }
    if (message.type !== 'loop-delay-stop' || histogram === null) return;
    histogram.disable();
    process.send?.({
      type: 'loop-delay',
      // How late the loop was: the time between two firings less the interval.
      ...percentiles(histogram, LOOP_RESOLUTION_MS),
      calls: summary(calls),
      upstream: summary(upstream),
    });
    calls = null;
    upstream = null;
    histogram = null;
  });
}
