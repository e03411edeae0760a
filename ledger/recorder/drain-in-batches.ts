/**
 * The loop both recorders share: read a batch, write it, acknowledge it only after the write. On any
 * failure the batch is kept and retried with doubling backoff (the writes are idempotent, so a batch
 * written before a failed acknowledgement is harmless), each failure reported with its stage.
 * `stop()` finishes the batch in progress (or abandons its retry) and cuts any pause short.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export type DrainStage = 'read' | 'write' | 'acknowledge';

/** Work run at the top of a turn (also before a retry) once `everyMs` has passed since its last run. */
export interface PeriodicJob<Stage extends string> {
  stage: Stage;
  everyMs: number;
  run: (now: number) => Promise<void>;
}

export interface DrainOptions<Entry, Written, JobStage extends string = never> {
  read: (count: number) => Promise<Entry[]>;
  write: (batch: readonly Entry[]) => Promise<Written>;
  /** Given what `write` returned, to count it once acknowledged. */
  acknowledge: (batch: readonly Entry[], written: Written) => Promise<void>;
  jobs?: readonly PeriodicJob<JobStage>[];
  batchSize: number;
  /** Pause when a read returned nothing. */
  idleMs: number;
  /**
   * After a batch smaller than `batchSize` (the read took everything waiting) wait until `gatherMs`
   * after that batch's read began, so the next batch gathers what arrives meanwhile; after a full
   * batch (behind) read again at once. 0: always read again at once.
   */
  gatherMs: number;
  /** Retry delays: doubling from `initialMs` up to `maxMs`. */
  backoff: { initialMs: number; maxMs: number };
  clock: () => number;
  /** Each failure, with the stage it came from. */
  onError: (error: unknown, stage: DrainStage | JobStage) => void;
}

export interface Drain {
  /** Finishes the batch in progress (or abandons its retry) and ends the loop. */
  stop(): Promise<void>;
}

export function drainInBatches<Entry, Written, JobStage extends string = never>(
  options: DrainOptions<Entry, Written, JobStage>,
): Drain {
  const { batchSize, backoff, clock } = options;
  const jobs = (options.jobs ?? []).map((job) => ({ ...job, due: 0 }));
  const stopping = new AbortController();
  const pause = (ms: number) =>
    sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);

  async function loop(): Promise<void> {
    let batch: Entry[] = [];
    let delay = backoff.initialMs;
    let readAt = 0;
    while (!stopping.signal.aborted) {
      let stage: DrainStage | JobStage = 'read';
      try {
        const now = clock();
        for (const job of jobs.filter((each) => now >= each.due)) {
          job.due = now + job.everyMs;
          stage = job.stage;
          await job.run(now);
        }
        stage = 'read';
        if (batch.length === 0) {
          readAt = clock();
          batch = await options.read(batchSize);
        }
        if (batch.length === 0) {
          await pause(options.idleMs);
          continue;
        }
        // Kept until acknowledged: a failed write or acknowledgement is retried with the same batch.
        stage = 'write';
        const written = await options.write(batch);
        stage = 'acknowledge';
        await options.acknowledge(batch, written);
        const wait = batch.length < batchSize ? readAt + options.gatherMs - clock() : 0;
        batch = [];
        delay = backoff.initialMs;
        if (wait > 0) await pause(wait);
      } catch (error) {
        options.onError(error, stage);
        await pause(delay);
        delay = Math.min(delay * 2, backoff.maxMs);
      }
    }
  }

  const done = loop();
  return {
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
}
