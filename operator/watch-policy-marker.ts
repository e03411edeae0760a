/**
 * Notices a policy cache that lost its data, within the tick (1 s): the leader reads the store's
 * generation marker on every tick and at once whenever the store's connection comes back (a
 * restarted Redis may be empty). An absent marker starts the full program (reload-policy-cache.ts),
 * repeated while the store keeps losing data meanwhile; one program at a time.
 */
import type { OperatorContext } from './operator-context.js';
import { LeadershipLostError, reloadPolicyCache } from './reload-policy-cache.js';

/** Programs started in a row for one absent marker before waiting for the next tick. */
const ATTEMPTS = 3;

export interface PolicyMarkerWatchOptions {
  context: OperatorContext;
  isLeader: () => boolean;
  /** How often the marker is read (default 1 s). */
  intervalMs?: number;
}

export type ReloadCause = 'lost' | 'initial';

/**
 * Lost: this process saw the marker before, or the objects' status says they were programmed into
 * a store that now holds no key document. Otherwise a store never programmed (initial).
 */
async function causeOf(context: OperatorContext, markerSeen: boolean): Promise<ReloadCause> {
  if (markerSeen) return 'lost';
  const programmed = (['Upstream', 'Group', 'Account', 'ApiKey'] as const).some((kind) =>
    context.cache.list(kind).some((object) => {
      const status = (object as { status?: { conditions?: { type: string; status: string }[] } })
        .status;
      return status?.conditions?.some((one) => one.type === 'Programmed' && one.status === 'True');
    }),
  );
  // A store programmed by a release before the marker holds its documents: not a loss.
  if (!programmed || (await context.store.listKeyPolicyDigests()).size > 0) return 'initial';
  return 'lost';
}

export class PolicyMarkerWatch {
  readonly #options: PolicyMarkerWatchOptions;
  #timer: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  #running: Promise<void> | null = null;
  #markerSeen = false;
  /** A failing check repeats every tick while the store is away: logged once per streak. */
  #failing = false;

  constructor(options: PolicyMarkerWatchOptions) {
    this.#options = options;
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.check();
    }, this.#options.intervalMs ?? 1_000);
    this.#timer.unref();
    this.#unsubscribe = this.#options.context.store.onReconnect(() => {
      this.check();
    });
  }

  /** Reads the marker now (leader only); programs the cache when it is absent. */
  check(): void {
    if (!this.#options.isLeader() || this.#running !== null) return;
    this.#running = this.#checkOnce()
      .then(() => {
        this.#failing = false;
      })
      .catch((error: unknown) => {
        if (error instanceof LeadershipLostError || this.#failing) return;
        this.#failing = true;
        this.#options.context.logger.warn({ err: error }, 'policy cache check failed; retrying');
      })
      .finally(() => {
        this.#running = null;
      });
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#running;
  }

  async #checkOnce(): Promise<void> {
    const { context, isLeader } = this.#options;
    if ((await context.store.readPolicyMarker()) !== null) {
      this.#markerSeen = true;
      return;
    }
    const cause = await causeOf(context, this.#markerSeen);
    const started = performance.now();
    context.metrics.policyReloading.set(1);
    // A first program is routine; a loss is what an operator of the cluster must hear about.
    const log = cause === 'lost' ? context.logger.warn : context.logger.info;
    log.call(context.logger, { cause }, 'policy cache marker absent; programming every policy');
    try {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const counts = await reloadPolicyCache(context, { stillLeading: isLeader });
        if (counts.committed) {
          const seconds = (performance.now() - started) / 1000;
          context.metrics.policyReloads.inc({ cause });
          context.metrics.policyReloadSeconds.observe(seconds);
          log.call(context.logger, { cause, seconds, ...counts }, 'policy cache programmed');
          this.#markerSeen = true;
          return;
        }
      }
    } finally {
      context.metrics.policyReloading.set(0);
    }
  }
}
