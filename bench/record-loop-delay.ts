/**
 * Records this process's event-loop delay between two IPC messages (`loop-delay-start`,
 * `loop-delay-stop`) and answers the percentiles in ms (`loop-delay`), so a latency tail can be
 * told apart from stalls of the event loop. Used by the one-worker bench gateway.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export function answerLoopDelayRequests(): void {
  let histogram: IntervalHistogram | null = null;
  process.on('message', (message: { type?: unknown }) => {
    if (message.type === 'loop-delay-start') {
      histogram?.disable();
      histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      process.send?.({ type: 'loop-delay-started' });
      return;
    }
    if (message.type !== 'loop-delay-stop' || histogram === null) return;
    histogram.disable();
    const ms = (nanoseconds: number): number => Math.round(nanoseconds / 1e4) / 100;
    process.send?.({
      type: 'loop-delay',
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      p999: ms(histogram.percentile(99.9)),
      max: ms(histogram.max),
    });
    histogram = null;
  });
}
