/**
 * The `--trace-gc-nvp` lines of one process's main thread over a window of time: V8 prints each
 * collection as `[<pid>:<isolate>] <ms> ms: pause=…`, the ms counted from when that isolate started;
 * the main thread's isolate started with the process, so `spawnedUs + ms * 1000` places its lines
 * on the monotonic clock (within the process's start-up, a few tens of ms). Worker threads' isolates
 * (the embedded ledger's) start later and are left out: the main isolate is the one with the most
 * lines. Pure.
 */

const HEAD = /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+(?:\.\d+)?) ms: pause=/;

export function selectGcTraceLines(
  lines: readonly string[],
  window: { spawnedUs: number; fromUs: number; toUs: number },
): string[] {
  const parsed = lines
    .map((line) => ({ line, head: HEAD.exec(line) }))
    .filter(({ head }) => head !== null)
    .map(({ line, head }) => ({ line, isolate: head?.[1] ?? '', atMs: Number(head?.[2]) }));
  const counts = new Map<string, number>();
  for (const { isolate } of parsed) counts.set(isolate, (counts.get(isolate) ?? 0) + 1);
  const main = [...counts.entries()].sort((left, right) => right[1] - left[1])[0]?.[0];
  return parsed
    .filter(({ isolate, atMs }) => {
      const at = window.spawnedUs + atMs * 1000;
      return isolate === main && at >= window.fromUs && at <= window.toUs;
    })
    .map(({ line }) => line);
}
