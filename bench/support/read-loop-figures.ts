/**
 * The event-loop delay and garbage-collection pauses of a Tollgate process over one window, read
 * from its Prometheus page (prom-client's default metrics, prefix `tollgate_`): the loop-delay
 * gauges are of the histogram since the previous scrape (prom-client resets it at each scrape), so
 * a scrape at the window's start and one at its end give the window's delay; the GC histogram is
 * cumulative, so the window's pauses are the difference of the two scrapes.
 *
 * prom-client's gauges are of Node's `monitorEventLoopDelay`, whose timer fires every
 * `LOOP_SAMPLE_INTERVAL_MS` (prom-client's default precision) and records the time since its last
 * firing: an idle loop reads about 10 ms. The figures here are that time less the interval, how
 * late the loop was (0 at the least).
 */
import { metricSum } from './spawn-tollgate-command.js';

export interface GcReading {
  /** Pauses by kind (`minor`, `major`, `incremental`, `weakcb`). */
  count: Record<string, number>;
  seconds: Record<string, number>;
  /** Pauses of more than 10 ms (any kind). */
  over10ms: number;
}

export interface LoopFigures {
  /** How late the event loop was over the window (ms, `loopDelayMs`): p50, p99 and max. */
  delayP50Ms: number | null;
  delayP99Ms: number | null;
  delayMaxMs: number | null;
  /** GC pauses over the window: how many, their total (ms), and how many above 10 ms. */
  gcPauses: number;
  gcMs: number;
  gcOver10ms: number;
  /** GC ms over the window by kind (`minor`: scavenges; `major`, `incremental`: marking). */
  gcMsByKind: Record<string, number>;
}

/** The interval of prom-client's event-loop timer (its `eventLoopMonitoringPrecision` default). */
export const LOOP_SAMPLE_INTERVAL_MS = 10;

/** How late the loop was (ms), from one of prom-client's event-loop gauges; null when absent. */
export function loopDelayMs(text: string, name: string, prefix = 'tollgate_'): number | null {
  const seconds = metricSum(text, `${prefix}nodejs_eventloop_lag_${name}_seconds`);
  if (seconds === null) return null;
  return Math.max(0, Math.round((seconds * 1000 - LOOP_SAMPLE_INTERVAL_MS) * 100) / 100);
}

function labelValue(line: string, label: string): string | undefined {
  const match = new RegExp(`${label}="([^"]*)"`).exec(line);
  return match?.[1];
}

/** The cumulative GC histogram of a metrics page. */
export function readGc(text: string, prefix = 'tollgate_'): GcReading {
  const name = `${prefix}nodejs_gc_duration_seconds`;
  const reading: GcReading = { count: {}, seconds: {}, over10ms: 0 };
  let atMost10ms = 0;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (!Number.isFinite(value)) continue;
    const kind = labelValue(line, 'kind') ?? 'unknown';
    if (line.startsWith(`${name}_count`)) {
      reading.count[kind] = (reading.count[kind] ?? 0) + value;
      total += value;
    } else if (line.startsWith(`${name}_sum`)) {
      reading.seconds[kind] = (reading.seconds[kind] ?? 0) + value;
    } else if (line.startsWith(`${name}_bucket`) && labelValue(line, 'le') === '0.01') {
      atMost10ms += value;
    }
  }
  reading.over10ms = total - atMost10ms;
  return reading;
}

function sum(values: Record<string, number>): number {
  return Object.values(values).reduce((total, one) => total + one, 0);
}

/** The window's figures from the scrape at its start (GC only) and the one at its end. */
export function loopFiguresBetween(
  startText: string,
  endText: string,
  prefix = 'tollgate_',
): LoopFigures {
  const ms = (name: string): number | null => loopDelayMs(endText, name, prefix);
  const before = readGc(startText, prefix);
  const after = readGc(endText, prefix);
  return {
    delayP50Ms: ms('p50'),
    delayP99Ms: ms('p99'),
    delayMaxMs: ms('max'),
    gcPauses: sum(after.count) - sum(before.count),
    gcMs: Math.round((sum(after.seconds) - sum(before.seconds)) * 1e5) / 100,
    gcOver10ms: after.over10ms - before.over10ms,
    gcMsByKind: Object.fromEntries(
      Object.entries(after.seconds).map(([kind, seconds]) => [
        kind,
        Math.round((seconds - (before.seconds[kind] ?? 0)) * 1e5) / 100,
      ]),
    ),
  };
}
