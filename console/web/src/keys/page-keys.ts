/**
 * Pure: the page of the keys table shown. The search and the sort run over every key; only one
 * page of rows is rendered (a thousand rows of quota bars and windows take over a second to draw).
 */
export const KEY_PAGE_SIZES = [50, 100, 200] as const;

export interface KeyPage {
  /** The page shown, 0-based (a page past the end is the last one). */
  index: number;
  /** Pages in all (at least 1). */
  count: number;
  /** The rows shown: `start` (inclusive) to `end` (exclusive). */
  start: number;
  end: number;
}

export function keyPageOf(rows: number, pageSize: number, wanted: number): KeyPage {
  const count = Math.max(1, Math.ceil(rows / pageSize));
  const index = Math.min(Math.max(0, Math.floor(wanted)), count - 1);
  const start = index * pageSize;
  return { index, count, start, end: Math.min(rows, start + pageSize) };
}
