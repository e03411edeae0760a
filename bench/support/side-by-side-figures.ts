/**
 * Pure parts of the side-by-side bench (`bench/macro/side-by-side.ts`): which targets a run measures
 * (`--targets A,B,D,E,F`) and the CPU per call of each process involved in a target.
 */

/** Every target, in the order a run measures them. */
export const SIDE_BY_SIDE_TARGETS = ['A', 'B', 'D', 'E', 'F'] as const;
export type SideBySideTarget = (typeof SIDE_BY_SIDE_TARGETS)[number];

/** `--targets B,d,F` to the targets in run order; absent or empty: all of them. */
export function parseTargets(text: string | undefined): SideBySideTarget[] {
  if (text === undefined || text.trim() === '') return [...SIDE_BY_SIDE_TARGETS];
  const asked = new Set(
    text
      .split(',')
      .map((one) => one.trim().toUpperCase())
      .filter((one) => one !== ''),
  );
  for (const one of asked) {
    if (!(SIDE_BY_SIDE_TARGETS as readonly string[]).includes(one)) {
      throw new Error(
        `unknown side-by-side target ${one} (known: ${SIDE_BY_SIDE_TARGETS.join(',')})`,
      );
    }
  }
  return SIDE_BY_SIDE_TARGETS.filter((one) => asked.has(one));
}

/** CPU seconds of each process of a group, by pid. */
export type CpuReading = ReadonlyMap<number, number>;

/**
 * CPU seconds a group of processes spent between two readings: a pid seen only in the second
 * reading started in between and counts whole; one seen only in the first ended and is lost.
 */
export function cpuSecondsBetween(before: CpuReading, after: CpuReading): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}

/**
 * CPU ms per call of each process (named) over `calls` calls, and their total; NaN without calls.
 */
export function cpuMsPerCall(
  secondsByProcess: Readonly<Record<string, number>>,
  calls: number,
): { byProcess: Record<string, number>; total: number } {
  const byProcess: Record<string, number> = {};
  let total = 0;
  for (const [name, seconds] of Object.entries(secondsByProcess)) {
    const value = calls > 0 ? (seconds * 1000) / calls : NaN;
    byProcess[name] = value;
    total += value;
  }
  return { byProcess, total };
}

/** The command that reproduces a run (the summary keeps full runs: without `--quick`). */
export function sideBySideCommand(
  quick: boolean,
  targets: readonly string[] | null,
  more: { repeat?: number; kinds?: readonly string[] | null; tailOnly?: boolean } = {},
): string {
  const chosen = targets === null ? '' : ` --targets ${targets.join(',')}`;
  const repeat = (more.repeat ?? 1) > 1 ? ` --repeat ${more.repeat}` : '';
  const kinds =
    more.kinds === undefined || more.kinds === null ? '' : ` --kinds ${more.kinds.join(',')}`;
  const tail = more.tailOnly === true ? ' --tail-only' : '';
  return `npm run bench -- --side-by-side${quick ? ' --quick' : ''}${chosen}${repeat}${kinds}${tail}`;
}
