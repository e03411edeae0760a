/**
 * Form text to spec values and back (pure): decimals stay strings unless whole numbers (the
 * resource model takes either), integers become numbers when they are, empty means absent, lists
 * are one entry per line. What the form cannot parse is sent as typed, for the server to refuse.
 */

/** '' → undefined; '12' → 12; '0.5' → '0.5'; anything else as typed. */
export function decimalValue(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^(0|[1-9][0-9]{0,8})$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

/** '' → undefined; '8' → 8; anything else as typed. */
export function integerValue(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^-?[0-9]{1,15}$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The object without its undefined members (and undefined when none is left). */
export function compact(
  value: Record<string, unknown>,
  options: { emptyIsAbsent?: boolean } = {},
): Record<string, unknown> | undefined {
  const kept = Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
  if (options.emptyIsAbsent === true && Object.keys(kept).length === 0) return undefined;
  return kept;
}

/** A local refusal, shaped like the server's (field path and plain message). */
export interface FormProblem {
  field: string;
  message: string;
}
