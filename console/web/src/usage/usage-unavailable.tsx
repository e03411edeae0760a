/**
 * What the console shows where usage figures would be when the usage ledger cannot be read (none
 * configured, or unreachable): the keys and their management keep working, only the figures are
 * missing, so this is a note and not an error.
 */
import { ApiError } from '../api/console-api.js';

export const USAGE_UNAVAILABLE_TEXT =
  'Usage figures are unavailable: the console cannot read the usage ledger right now. Keys can still be managed.';

/** True for the console's 503 USAGE_UNAVAILABLE answer. */
export function isUsageUnavailable(error: Error | null): boolean {
  return error instanceof ApiError && error.code === 'USAGE_UNAVAILABLE';
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
