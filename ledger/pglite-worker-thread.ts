/**
 * The embedded ledger's PGlite in a worker thread. PGlite is PostgreSQL compiled to WebAssembly and
 * runs each statement synchronously on the thread that calls it: on the request thread of
 * `tollgate local`, an insert of a recorder batch held the event loop for 15 to 40 ms (and a
 * console query as long), so every call arriving meanwhile waited. Here the thread that owns PGlite
 * only runs statements; the caller sends `{ id, sql, params }` and gets the rows back (structured
 * clone: numbers, strings, bigints, dates, arrays). Statements run one at a time in the order sent
 * (PGlite's own queue), so the caller's transaction (`begin`, statements, `commit`, serialised on
 * the caller's side by the Kysely driver in `pglite-worker-dialect.ts`) is never interleaved.
 *
 * The worker's code is a small CommonJS script evaluated from a string, like the initdb child in
 * `open-ledger-database.ts`: it runs the same from the TypeScript sources (tests, tsx) and from the
 * build, and imports nothing of ours. It loads PGlite with a dynamic `import()` of the package's
 * resolved URL.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a failed statement carries back: PostgreSQL's fields (`code`, `detail`...) as strings. */
export type StatementErrorFields = Record<string, string | number>;

type Reply =
  | { id: number; rows: Record<string, unknown>[]; affectedRows?: number }
  | { id: number; error: StatementErrorFields }
  | { id: number; closed: true };

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  // Linux: this thread's id, then its niceness (setpriority on a thread id sets that thread's only).
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.niceness);
} catch {
  // Elsewhere the thread keeps the process's priority.
}
const fieldsOf = (error) => {
  const fields = { message: error instanceof Error ? error.message : String(error) };
  if (error !== null && typeof error === 'object') {
    for (const [name, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number') fields[name] = value;
    }
  }
  return fields;
};
const opened = import(workerData.moduleUrl).then(({ PGlite }) =>
  PGlite.create(workerData.folder, { startParams: workerData.startParams }));
opened.catch(() => undefined);
parentPort.on('message', async (message) => {
  try {
    const db = await opened;
    if (message.close === true) {
      await db.close();
      parentPort.postMessage({ id: message.id, closed: true });
      return;
    }
    const result = await db.query(message.sql, message.params);
    parentPort.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: fieldsOf(error) });
  }
});
`;

/** The error of a statement the worker ran, with PostgreSQL's fields copied onto it. */
const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * The thread's niceness (Linux): when the request thread and this one want the same core, the
 * scheduler gives the request thread about ten times the share, so a long insert waits for the
 * calls instead of slowing them. With a core to spare it changes nothing.
 */
const LEDGER_THREAD_NICENESS = 10;

export class PgliteStatementError extends Error {
  constructor(fields: StatementErrorFields) {
    super(String(fields['message'] ?? 'PGlite statement failed'));
    for (const [name, value] of Object.entries(fields)) {
      if (name !== 'message' && name !== 'stack') Object.assign(this, { [name]: value });
    }
  }
}

interface Waiter {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

export interface StatementResult {
  rows: Record<string, unknown>[];
  affectedRows?: number;
}

export interface PgliteWorkerThread {
  query(sql: string, params: readonly unknown[]): Promise<StatementResult>;
  /** Closes the database (a clean shutdown of PGlite) and ends the thread. */
  close(): Promise<void>;
}

export function startPgliteWorkerThread(options: {
  folder: string;
  startParams: readonly string[];
}): PgliteWorkerThread {
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // The thread's JavaScript holds little beyond one statement's rows: a small young generation
    // keeps the second heap from adding tens of megabytes to the process at rest.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    workerData: {
      moduleUrl: moduleUrl.href,
      folder: options.folder,
      niceness: LEDGER_THREAD_NICENESS,
      startParams: [...options.startParams],
    },
  });
  const pending = new Map<number, Waiter>();
  let nextId = 0;
  let ended: Error | null = null;
  // The thread keeps the process alive only while a statement is waiting for it.
  worker.unref();
  const settle = (id: number): Waiter | undefined => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiter;
  };
  worker.on('message', (reply: Reply) => {
    settle(reply.id)?.resolve(reply);
  });
  const fail = (error: Error): void => {
    ended ??= error;
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => {
    fail(new Error(`the ledger's PGlite thread exited (${String(code)})`));
  });

  const send = (message: Record<string, unknown>): Promise<Reply> => {
    if (ended !== null) return Promise.reject(ended);
    const id = nextId++;
    return new Promise<Reply>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };

  return {
    async query(sql, params) {
      const reply = await send({ sql, params: [...params] });
      if ('error' in reply) throw new PgliteStatementError(reply.error);
      if ('closed' in reply) throw new Error('the ledger is closed');
      return reply;
    },
    async close() {
      if (ended !== null) return;
      const reply = await send({ close: true });
      if ('error' in reply) throw new PgliteStatementError(reply.error);
      await worker.terminate();
    },
  };
}
