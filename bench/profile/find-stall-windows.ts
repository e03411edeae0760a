/**
 * Where a thread held its event loop, from a V8 `.cpuprofile` (`node --cpu-prof`): the windows in
 * which consecutive samples stayed off `(idle)` (the loop's poll, waiting for I/O) for longer than
 * a threshold, each with the functions that filled it, and over all of them the functions, the
 * outermost callers and the garbage collector's share. A sample stands for the time up to the next
 * one (`timeDeltas`). Pure.
 */

export interface StallProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  /** Microseconds, on the clock of `process.hrtime` (CLOCK_MONOTONIC on Linux). */
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface StallShare {
  name: string;
  ms: number;
}

export interface StallWindow {
  /** Milliseconds from the profile's start. */
  atMs: number;
  ms: number;
  /** Self time by function, largest first. */
  functions: StallShare[];
  /** The frames under which most of the window ran (inclusive time, outermost first at a tie). */
  callers: StallShare[];
  garbageCollectorMs: number;
  /** The longest run of consecutive `(garbage collector)` samples: one pause, at most. */
  longestCollectionMs: number;
  /**
   * Time in samples that stood for more than `gapMs`: the thread (or the sampler, on the same
   * core) was not running; another thread or process held the CPU.
   */
  gapMs: number;
}

export interface StallReport {
  /** The part of the profile looked at, in ms. */
  coveredMs: number;
  busyMs: number;
  thresholdMs: number;
  stalls: StallWindow[];
  stalledMs: number;
  /** Over every stall. */
  functions: StallShare[];
  callers: StallShare[];
  garbageCollectorMs: number;
  longestCollectionMs: number;
  gapMs: number;
}

export interface StallOptions {
  /** A window counts when longer than this (ms). */
  thresholdMs: number;
  /** Only samples between these times (µs, the profile's clock); the whole profile when absent. */
  fromUs?: number;
  toUs?: number;
  /** A sample standing for longer than this (ms) counts as a gap (5 by default). */
  gapMs?: number;
  /** Entries kept per list. */
  limit?: number;
}

const IDLE = '(idle)';
const GC = '(garbage collector)';
/** Frames that are in every stack and tell nothing of the cause. */
const UNINFORMATIVE = new Set(['(root)', '(program)', IDLE]);

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const ours = /\/((?:gateway|bench|test|operator|local|store|ledger|console|crds)\/.*)$/.exec(url);
  return ours?.[1] ?? url.replace(/^file:\/\//, '');
}

function frameName(callFrame: StallProfile['nodes'][number]['callFrame']): string {
  const { functionName, url, lineNumber } = callFrame;
  if (url === '') return functionName;
  const line = lineNumber >= 0 ? `:${String(lineNumber + 1)}` : '';
  return `${functionName || '(anonymous)'} ${shortUrl(url)}${line}`;
}

function add(totals: Map<string, number>, name: string, ms: number): void {
  totals.set(name, (totals.get(name) ?? 0) + ms);
}

function ranked(totals: Map<string, number>, limit: number): StallShare[] {
  return [...totals.entries()]
    .map(([name, ms]) => ({ name, ms: Math.round(ms * 100) / 100 }))
    .sort((left, right) => right.ms - left.ms)
    .slice(0, limit);
}

/** For each node id: its frame's name and the names on its stack, outermost first. */
function stacksOf(profile: StallProfile): Map<number, { name: string; stack: string[] }> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const stacks = new Map<number, { name: string; stack: string[] }>();
  for (const node of profile.nodes) {
    const stack: string[] = [];
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id);
      if (frame !== undefined && !UNINFORMATIVE.has(frame.callFrame.functionName)) {
        stack.unshift(frameName(frame.callFrame));
      }
    }
    stacks.set(node.id, { name: frameName(node.callFrame), stack });
  }
  return stacks;
}

interface Tally {
  functions: Map<string, number>;
  callers: Map<string, number>;
  gcMs: number;
  gcRunMs: number;
  longestGcMs: number;
  gapMs: number;
}

const emptyTally = (): Tally => ({
  functions: new Map(),
  callers: new Map(),
  gcMs: 0,
  gcRunMs: 0,
  longestGcMs: 0,
  gapMs: 0,
});

function tallySample(
  tally: Tally,
  frame: { name: string; stack: string[] },
  sample: { ms: number; gapMs: number },
): void {
  const { ms } = sample;
  add(tally.functions, frame.name, ms);
  if (frame.name === GC) {
    tally.gcMs += ms;
    tally.gcRunMs += ms;
    tally.longestGcMs = Math.max(tally.longestGcMs, tally.gcRunMs);
  } else tally.gcRunMs = 0;
  if (ms > sample.gapMs) tally.gapMs += ms;
  // Each frame once per sample, however deep its recursion.
  for (const name of new Set(frame.stack)) add(tally.callers, name, ms);
}

export function findStallWindows(profile: StallProfile, options: StallOptions): StallReport {
  const limit = options.limit ?? 8;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const stacks = stacksOf(profile);
  const fromUs = options.fromUs ?? profile.startTime;
  const toUs = options.toUs ?? profile.endTime;
  // Sample i was taken at times[i] and stands for the time up to times[i + 1].
  const times: number[] = [];
  let clock = profile.startTime;
  for (let index = 0; index < samples.length; index += 1) {
    clock += deltas[index] ?? 0;
    times.push(clock);
  }
  const stalls: StallWindow[] = [];
  const overall = emptyTally();
  let busyMs = 0;
  let open: { startUs: number; endUs: number; tally: Tally } | null = null;
  const close = (): void => {
    if (open === null) return;
    const ms = (open.endUs - open.startUs) / 1000;
    if (ms > options.thresholdMs) {
      stalls.push({
        atMs: Math.round((open.startUs - profile.startTime) / 100) / 10,
        ms: Math.round(ms * 100) / 100,
        functions: ranked(open.tally.functions, limit),
        callers: ranked(open.tally.callers, limit),
        garbageCollectorMs: Math.round(open.tally.gcMs * 100) / 100,
        longestCollectionMs: Math.round(open.tally.longestGcMs * 100) / 100,
        gapMs: Math.round(open.tally.gapMs * 100) / 100,
      });
      for (const [name, value] of open.tally.functions) add(overall.functions, name, value);
      for (const [name, value] of open.tally.callers) add(overall.callers, name, value);
      overall.gcMs += open.tally.gcMs;
      overall.longestGcMs = Math.max(overall.longestGcMs, open.tally.longestGcMs);
      overall.gapMs += open.tally.gapMs;
    }
    open = null;
  };
  for (let index = 0; index < samples.length; index += 1) {
    const at = times[index] ?? 0;
    const next = times[index + 1] ?? profile.endTime;
    if (at < fromUs || next > toUs) {
      close();
      continue;
    }
    const frame = stacks.get(samples[index] ?? -1);
    if (frame === undefined || frame.name === IDLE) {
      close();
      continue;
    }
    const ms = (next - at) / 1000;
    busyMs += ms;
    open ??= { startUs: at, endUs: at, tally: emptyTally() };
    open.endUs = next;
    tallySample(open.tally, frame, { ms, gapMs: options.gapMs ?? 5 });
  }
  close();
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return {
    coveredMs: round(
      (Math.min(toUs, profile.endTime) - Math.max(fromUs, profile.startTime)) / 1000,
    ),
    busyMs: round(busyMs),
    thresholdMs: options.thresholdMs,
    stalls,
    stalledMs: round(stalls.reduce((sum, stall) => sum + stall.ms, 0)),
    functions: ranked(overall.functions, limit),
    callers: ranked(overall.callers, limit),
    garbageCollectorMs: round(overall.gcMs),
    longestCollectionMs: round(overall.longestGcMs),
    gapMs: round(overall.gapMs),
  };
}

/** How long a thread's profile spent off `(idle)` between two times (µs, the profile's clock). */
export function busyMsBetween(profile: StallProfile, fromUs: number, toUs: number): number {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === IDLE).map((node) => node.id),
  );
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busyUs = 0;
  let at = profile.startTime;
  for (let index = 0; index < samples.length; index += 1) {
    at += deltas[index] ?? 0;
    const next = at + (deltas[index + 1] ?? profile.endTime - at);
    const overlap = Math.min(next, toUs) - Math.max(at, fromUs);
    if (overlap > 0 && !idle.has(samples[index] ?? -1)) busyUs += overlap;
  }
  return Math.round(busyUs / 10) / 100;
}
