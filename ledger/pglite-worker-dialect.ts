/**
 * Kysely over the PGlite worker thread (`pglite-worker-thread.ts`): the same adapter, compiler and
 * introspector as `kysely-pglite-dialect`, and the same single connection handed to one user at a
 * time (a transaction holds it from `begin` to `commit`), but each statement is sent to the thread
 * instead of run on the caller's.
 */
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { PgliteWorkerThread } from './pglite-worker-thread.js';

class WorkerConnection implements DatabaseConnection {
  constructor(private readonly thread: PgliteWorkerThread) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.thread.query(compiledQuery.sql, compiledQuery.parameters);
    const rows = result.rows as R[];
    return result.affectedRows === undefined || result.affectedRows === 0
      ? { rows }
      : { rows, numAffectedRows: BigInt(result.affectedRows) };
  }

  /** Kysely's interface; the ledger never streams a query. */
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the embedded ledger');
  }
}

class WorkerDriver implements Driver {
  private readonly connection: WorkerConnection;
  private held = false;
  private readonly queue: ((connection: WorkerConnection) => void)[] = [];

  constructor(private readonly thread: PgliteWorkerThread) {
    this.connection = new WorkerConnection(thread);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.connection);
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  releaseConnection(): Promise<void> {
    const next = this.queue.shift();
    if (next === undefined) this.held = false;
    else next(this.connection);
    return Promise.resolve();
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(
        settings.isolationLevel === undefined
          ? 'begin'
          : `start transaction isolation level ${settings.isolationLevel}`,
      ),
    );
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  destroy(): Promise<void> {
    return this.thread.close();
  }
}

export class PgliteWorkerDialect implements Dialect {
  constructor(private readonly thread: PgliteWorkerThread) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new WorkerDriver(this.thread);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
