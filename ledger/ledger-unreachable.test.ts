import { describe, expect, it } from 'vitest';
import { isLedgerUnreachable } from './ledger-unreachable.js';

/** An error as the drivers throw them: a message and, for most, a code. */
function failure(message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), extra);
}

describe('isLedgerUnreachable', () => {
  it.each([
    [
      'connection refused',
      failure('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
    ],
    ['no such host', failure('getaddrinfo ENOTFOUND db', { code: 'ENOTFOUND' })],
    ['a reset socket', failure('read ECONNRESET', { code: 'ECONNRESET' })],
    ['a connection exception (08006)', failure('connection failure', { code: '08006' })],
    ['an administrator shutdown (57P01)', failure('terminating connection', { code: '57P01' })],
    [
      'a server starting up (57P03)',
      failure('the database system is starting up', { code: '57P03' }),
    ],
    ['a dropped database (3D000)', failure('database "ledger" does not exist', { code: '3D000' })],
    ['a refused sign-in (28P01)', failure('password authentication failed', { code: '28P01' })],
    ['too many connections (53300)', failure('too many clients already', { code: '53300' })],
    ['a statement timeout (57014)', failure('canceling statement', { code: '57014' })],
    ['a lost connection', failure('Connection terminated unexpectedly')],
    ['a pool timeout', failure('timeout exceeded when trying to connect')],
    [
      'a connection timeout with its cause',
      failure('Connection terminated due to connection timeout', {
        cause: failure('Connection terminated unexpectedly'),
      }),
    ],
    ['a closed PGlite', failure('PGlite is closed')],
    ['a destroyed Kysely driver', failure('driver has already been destroyed')],
    [
      'an aborted WebAssembly instance',
      Object.assign(new Error('unreachable'), { name: 'RuntimeError' }),
    ],
    [
      'every address refused (AggregateError)',
      new AggregateError([failure('connect ECONNREFUSED ::1:5432', { code: 'ECONNREFUSED' })], ''),
    ],
    [
      'a cause deeper down',
      failure('query failed', { cause: failure('x', { code: 'ETIMEDOUT' }) }),
    ],
  ])('recognizes %s', (_name, error) => {
    expect(isLedgerUnreachable(error)).toBe(true);
  });

  it.each([
    ['a missing table (42P01)', failure('relation "x" does not exist', { code: '42P01' })],
    ['a syntax error (42601)', failure('syntax error at or near', { code: '42601' })],
    ['a unique violation (23505)', failure('duplicate key', { code: '23505' })],
    ['a bad cursor', new RangeError('invalid cursor')],
    ['a type error', new TypeError('not a number: object')],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('leaves %s to be an internal error', (_name, error) => {
    expect(isLedgerUnreachable(error)).toBe(false);
  });
});
