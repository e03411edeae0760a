/**
 * The notification timer: every interval the leader runs a round (run-notification-round.ts); a
 * round still running when the next is due is not doubled. Stopping waits for the round in flight
 * and closes the sender's connections.
 */
import type { OperatorContext } from '../operator-context.js';
import { NotificationMetrics } from './notification-metrics.js';
import type { RetryPolicy } from './plan-next-attempt.js';
import { NotificationRound } from './run-notification-round.js';
import { NotificationSender } from './send-notification.js';

export interface NotificationRounds {
  stop(): Promise<void>;
}

export function startNotificationRounds(
  context: OperatorContext,
  options: { isLeader: () => boolean; intervalMs: number; retry: RetryPolicy; timeoutMs: number },
): NotificationRounds {
  const sender = new NotificationSender({
    guard: context.notifierGuard,
    timeoutMs: options.timeoutMs,
  });
  const { retry } = options;
  // The claim outlives every retry: the sum of the backoffs is below attempts x the longest wait.
  const claimTtlMs = Math.max(7 * 86_400_000, retry.maxAttempts * retry.maxMs * 2);
  const round = new NotificationRound(context, {
    sender,
    metrics: new NotificationMetrics(context.metrics.registry),
    guard: context.notifierGuard,
    retry,
    claimTtlMs,
    leaseMs: options.timeoutMs * 3,
  });
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (!options.isLeader() || running !== null) return;
    running = round
      .run()
      .catch((error: unknown) => {
        context.logger.warn({ err: error }, 'notification round failed');
      })
      .finally(() => {
        running = null;
      });
  }, options.intervalMs);
  timer.unref();
  let stopping: Promise<void> | null = null;
  return {
    // Idempotent: an operator may be closed twice (by its owner and by a harness).
    stop: () => {
      stopping ??= (async () => {
        clearInterval(timer);
        await running;
        await sender.close();
      })();
      return stopping;
    },
  };
}
