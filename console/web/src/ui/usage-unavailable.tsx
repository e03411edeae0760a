/**
 * What the console shows where usage figures would be when the usage ledger cannot be read (none
 * configured, or unreachable): the keys and their management keep working, only the figures are
 * missing, so this is a note and not an error.
 */
import { ApiError } from '../api/console-api.js';
import { ErrorNote } from './error-note.js';

export const USAGE_UNAVAILABLE_TEXT =
  'Usage figures are unavailable: the console cannot read the usage ledger right now. Keys can still be managed.';

/** True for the console's 503 USAGE_UNAVAILABLE answer. */
export function isUsageUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'USAGE_UNAVAILABLE';
}

/**
 * A usage read whose "unavailable" answer is a result, not a failure: it is not retried, and the
 * page keeps showing it while it reads again (a failed query without data shows as loading then).
 */
export async function orUnavailable<T>(read: Promise<T>): Promise<T | 'unavailable'> {
  try {
    return await read;
  } catch (error) {
    if (isUsageUnavailable(error)) return 'unavailable';
    throw error;
  }
}

export function UsageUnavailableNote() {
  return (
    <p className="usage-unavailable" role="status">
      {USAGE_UNAVAILABLE_TEXT}
    </p>
  );
}

/** A figure that could not be read, in a table cell or a figure list. */
export function UnavailableFigure() {
  return (
    <span className="unavailable-figure" title={USAGE_UNAVAILABLE_TEXT}>
      unavailable
    </span>
  );
}

/** A usage panel's failure: the note when the ledger cannot be read, else the error itself. */
export function UsageErrorNote(props: { error: Error | null }) {
  if (props.error === null) return null;
  return isUsageUnavailable(props.error) ? (
    <UsageUnavailableNote />
  ) : (
    <ErrorNote error={props.error} />
  );
}
