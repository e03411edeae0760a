/** One undici Pool per upstream origin, created on first use and closed with the app. */
import { Pool } from 'undici';

export interface UpstreamTimeouts {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export class UpstreamPools {
  readonly #pools = new Map<string, Pool>();
  readonly #timeouts: UpstreamTimeouts;

  constructor(timeouts: UpstreamTimeouts) {
    this.#timeouts = timeouts;
  }

  get timeouts(): UpstreamTimeouts {
    return this.#timeouts;
  }

  get(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connect: { timeout: this.#timeouts.connectTimeoutMs },
        headersTimeout: this.#timeouts.headersTimeoutMs,
        bodyTimeout: this.#timeouts.bodyTimeoutMs,
        keepAliveTimeout: 10_000,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
