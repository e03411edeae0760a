/** `tollgate recorder` configuration: flags and `TOLLGATE_*` environment variables, parsed once. */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_RETENTION_DAYS } from './apply-retention.js';
import { checkTimeZone } from './queries/local-time.js';

const configSchema = z.object({
  redisUrl: z.string().min(1).optional(),
  redisClusterNodes: z.array(z.string().regex(/^[^:]+:\d+$/)).default([]),
  redisPrefix: z.string().min(1).default('tg:'),
  databaseUrl: z.string().min(1),
  retentionDays: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_RETENTION_DAYS),
  timeZone: z
    .string()
    .default('UTC')
    .refine((zone) => {
      try {
        checkTimeZone(zone);
        return true;
      } catch {
        return false;
      }
    }, 'unknown time zone'),
  metricsPort: z.coerce.number().int().min(0).max(65535).default(9092),
  metricsHost: z.string().min(1).default('0.0.0.0'),
  consumer: z.string().min(1).max(200),
  batchSize: z.coerce.number().int().min(1).max(10_000).default(500),
  // The read-to-read interval while the recorder keeps up (run-recorder.ts `gatherMs`): batches of
  // 200 ms of records instead of a few each, and a record waits at most about that long more.
  gatherMs: z.coerce.number().int().min(0).max(10_000).default(200),
  // How much the recorder raises its own niceness, as `nice -n` (lower-process-priority.ts; 0: off,
  // the default: docs/ledger.md, "The recorder's pace and priority", says why).
  niceness: z.coerce.number().int().min(0).max(19).default(0),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type RecorderConfig = Readonly<z.infer<typeof configSchema>>;

/** Each flag the recorder takes, with its environment variable (the command table lists them all). */
export const RECORDER_FLAGS = {
  'redis-url': 'REDIS_URL',
  'redis-cluster-nodes': 'TOLLGATE_REDIS_CLUSTER_NODES',
  'redis-prefix': 'TOLLGATE_REDIS_PREFIX',
  'database-url': 'TOLLGATE_DATABASE_URL',
  'retention-days': 'TOLLGATE_RETENTION_DAYS',
  'time-zone': 'TOLLGATE_TIME_ZONE',
  'metrics-port': 'TOLLGATE_METRICS_PORT',
  'metrics-host': 'TOLLGATE_METRICS_HOST',
  consumer: 'TOLLGATE_RECORDER_CONSUMER',
  'batch-size': 'TOLLGATE_RECORDER_BATCH_SIZE',
  'gather-ms': 'TOLLGATE_RECORDER_GATHER_MS',
  niceness: 'TOLLGATE_RECORDER_NICENESS',
  'log-level': 'TOLLGATE_LOG_LEVEL',
} as const;

type Flag = keyof typeof RECORDER_FLAGS;

export function parseRecorderConfig(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): RecorderConfig {
  const { values } = parseArgs({
    args: [...args],
    options: Object.fromEntries(
      Object.keys(RECORDER_FLAGS).map((flag) => [flag, { type: 'string' as const }]),
    ),
    strict: true,
  });
  const pick = (flag: Flag): string | undefined => {
    const value = values[flag] ?? environment[RECORDER_FLAGS[flag]];
    return value === '' ? undefined : value;
  };
  const nodes = pick('redis-cluster-nodes');
  const result = configSchema.safeParse({
    redisUrl: pick('redis-url') ?? environment.TOLLGATE_REDIS_URL,
    redisClusterNodes: nodes === undefined ? [] : nodes.split(',').map((node) => node.trim()),
    redisPrefix: pick('redis-prefix'),
    databaseUrl: pick('database-url'),
    retentionDays: pick('retention-days'),
    timeZone: pick('time-zone'),
    metricsPort: pick('metrics-port'),
    metricsHost: pick('metrics-host'),
    consumer: pick('consumer') ?? hostname(),
    batchSize: pick('batch-size'),
    gatherMs: pick('gather-ms'),
    niceness: pick('niceness'),
    logLevel: pick('log-level'),
  });
  if (!result.success) {
    throw new Error(`invalid recorder configuration: ${z.prettifyError(result.error)}`);
  }
  if (result.data.redisUrl === undefined && result.data.redisClusterNodes.length === 0) {
    throw new Error(
      'invalid recorder configuration: --redis-url or --redis-cluster-nodes is required',
    );
  }
  return Object.freeze(result.data);
}
