/**
 * The console's ledger, guarded: a query that fails because the ledger cannot be reached (see
 * `isLedgerUnreachable`: PostgreSQL down or refusing, a dropped database, pool timeouts, a closed
 * PGlite) throws the console's `503 USAGE_UNAVAILABLE` instead of the raw driver error, so every
 * usage route answers it and the keys routes can tell "no figures now" from a bug. Other failures
 * pass through unchanged (and end as 500 INTERNAL).
 */
import type { LedgerQueryable, Row } from '../../../ledger/ledger-database.js';
import { isLedgerUnreachable } from '../../../ledger/ledger-unreachable.js';
import { ConsoleError, isConsoleError } from '../console-error.js';

export const LEDGER_UNREACHABLE_MESSAGE =
  'The usage ledger cannot be reached: usage figures are unavailable for now. Keys can still be managed.';

export const NO_LEDGER_MESSAGE = 'No usage ledger is configured for this console.';

/** Where the cause of an unreachable ledger is reported (the console's logger). */
export interface LedgerWarnings {
  warn(details: { err: unknown }, message: string): void;
}

export function guardLedger(ledger: LedgerQueryable, log: LedgerWarnings): LedgerQueryable {
  return {
    async query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]> {
      try {
        return await ledger.query<T>(text, values);
      } catch (error) {
        if (!isLedgerUnreachable(error)) throw error;
        log.warn({ err: error }, 'usage ledger unreachable');
        throw new ConsoleError('USAGE_UNAVAILABLE', LEDGER_UNREACHABLE_MESSAGE, { cause: error });
      }
    },
  };
}

/**
 * `work`'s result, or `'unavailable'` when it needed the ledger and the ledger could not be read:
 * for answers that stay useful without usage figures (the keys list, a key).
 */
export async function unlessLedgerUnavailable<T>(
  work: () => Promise<T>,
): Promise<T | 'unavailable'> {
  try {
    return await work();
  } catch (error) {
    if (isConsoleError(error) && error.code === 'USAGE_UNAVAILABLE') return 'unavailable';
    throw error;
  }
}
