/**
 * When a namespace's counters are whole, from the fields of its account counters on Redis (the
 * memory store applies the rule when it loads its file, memory-state.ts): `present` marks them
 * whole; a loss removes it. A store written by a release before
 * the marker holds counters (`spent`, moved by every charge) without it: those were never lost
 * and count as whole, to be marked. A charge that finds neither `present` nor `spent` (the counters
 * were lost) sets `lost`, so the `spent` it writes is never taken for such history.
 */
import {
  COUNTERS_LOST_FIELD,
  COUNTERS_PRESENT_FIELD,
  COUNTERS_SPENT_FIELD,
} from './redis-key-names.js';

/** The account counters' fields that decide, as HMGET answers them (null when absent). */
export interface CountersMarks {
  present: string | null;
  spent: string | null;
  lost: string | null;
}

/** The HMGET field order of `CountersMarks`. */
export const COUNTERS_MARK_FIELDS = [
  COUNTERS_PRESENT_FIELD,
  COUNTERS_SPENT_FIELD,
  COUNTERS_LOST_FIELD,
] as const;

export function readCountersMarks(values: readonly (string | null)[]): CountersMarks {
  return { present: values[0] ?? null, spent: values[1] ?? null, lost: values[2] ?? null };
}

/** Whole: marked, or charged by a release before the marker and never lost since. */
export function countersWhole(marks: CountersMarks): boolean {
  return marks.present !== null || (marks.spent !== null && marks.lost === null);
}

/** Whole without the marker: the counters of a release before it, to be marked `present`. */
export function countersUnmarked(marks: CountersMarks): boolean {
  return marks.present === null && countersWhole(marks);
}

/** The same rule in Lua, over HMGET values (false when absent). */
export const LUA_COUNTERS_WHOLE = `
local function countersWhole(present, spent, lost)
  return (present and true) or (spent and not lost and true) or false
end
`;
