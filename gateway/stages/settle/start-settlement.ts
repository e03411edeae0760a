/**
 * The gateway's settlement durability, wired once in `build()`: the settlement queue (retries
 * while the store is away, hands over to lease expiry when it cannot) and the periodic sweep that
 * charges expired unsettled leases. `close()` drains the queue up to the drain deadline, then stops
 * the sweep.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../gateway-config.js';
import type { MeteringMetrics } from '../../metrics/metering-metrics.js';
import type { SpendStore } from '../../../store/store.js';
import { SettlementQueue } from './settle-with-retry.js';
import { LeaseSweeper } from './sweep-expired-leases.js';

export interface SettlementServices {
  queue: SettlementQueue;
  sweeper: LeaseSweeper;
  close(): Promise<void>;
}

export interface StartSettlementOptions {
  store: Pick<SpendStore, 'settle' | 'sweepExpiredLeases'>;
  config: Pick<
    AppConfig,
    'settlementRetryMs' | 'settlementQueueLimit' | 'leaseSweepMs' | 'drainTimeoutMs'
  >;
  clock: () => number;
  log: FastifyBaseLogger;
  metrics: MeteringMetrics;
}

export function startSettlement(options: StartSettlementOptions): SettlementServices {
  const { store, config, clock, log, metrics } = options;
  const queue = new SettlementQueue({
    store,
    retryForMs: config.settlementRetryMs,
    maxPending: config.settlementQueueLimit,
    clock,
    log,
    metrics,
    drainMs: config.drainTimeoutMs,
  });
  const sweeper = new LeaseSweeper({
    store,
    intervalMs: config.leaseSweepMs,
    clock,
    metrics,
    onCharged: (charged) => {
      log.warn({ charged }, 'expired unsettled leases charged as estimated');
    },
    onError: (error) => {
      log.warn({ err: error }, 'lease sweep failed');
    },
  });
  sweeper.start();
  return {
    queue,
    sweeper,
    close: async () => {
      await queue.close();
      await sweeper.stop();
    },
  };
}
