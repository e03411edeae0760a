/**
 * Pure: whether a ledger query failed because the ledger could not be reached or could not serve,
 * as opposed to a fault of the query itself. Readers (the console) answer the first kind as "usage
 * unavailable" and keep working; the second kind is a bug and stays an internal error.
 *
 * Recognized, on the error or anywhere in its `cause` chain or `errors` list:
 * - a socket that could not connect or was lost (Node's system codes: refused, reset, timed out,
 *   unreachable, no such host);
 * - PostgreSQL's SQLSTATE classes of an unusable server: 08 (connection exception), 28 (the
 *   console's role cannot sign in), 53 (out of connections, memory or disk), 57P01 to 57P04
 *   (shut down, crashed, starting, database dropped), 57014 (a statement cancelled, e.g. by
 *   `statement_timeout`), 58 (I/O error), and 3D000 (the ledger database does not exist);
 * - `pg` and `pg-pool`'s own errors for a connection that ended or timed out, which carry no code;
 * - PGlite closed or closing, or its WebAssembly instance aborted, and Kysely over a destroyed
 *   driver (a ledger closed under the reader).
 */

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

const SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '57P04', '3D000']);
const SQLSTATE_CLASSES = new Set(['08', '28', '53', '58']);

/** Messages of errors thrown without a code by pg, pg-pool, PGlite and Kysely. */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is clos(ed|ing)$/,
  /^driver has already been destroyed$/,
];

function isUnreachableItself(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
  }
  // WebAssembly.RuntimeError: PGlite's instance aborted (every later call fails too).
  if ((error as { name?: unknown }).name === 'RuntimeError') return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
}

export function isLedgerUnreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  if (isUnreachableItself(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (isLedgerUnreachable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((item) => isLedgerUnreachable(item, depth + 1));
}
