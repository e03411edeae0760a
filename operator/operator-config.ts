/**
 * `tollgate operator` configuration: flags (`--metrics-port 9091` or `--metrics-port=9091`) over
 * `TOLLGATE_*` / `REDIS_URL` / `KUBECONFIG` environment variables over defaults, parsed once by
 * zod. The only place the operator reads the environment.
 */
import { z } from 'zod';

const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);
const flagBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === '')
  .default(false);

export const operatorSettingsSchema = z.object({
  namespace: z.string().min(1).default('tollgate-system'),
  redisUrl: z.string().min(1).optional(),
  redisPrefix: z.string().min(1).optional(),
  dataDir: z.string().min(1).optional(),
  pepperFile: z.string().min(1).optional(),
  credentialKeyFile: z.string().min(1).optional(),
  kubeconfig: z.string().min(1).optional(),
  metricsPort: z.coerce.number().int().min(0).max(65_535).default(9091),
  metricsHost: z.string().min(1).default('0.0.0.0'),
  spendGauges: flagBoolean,
  resyncSeconds: seconds(300),
  leaseDurationSeconds: seconds(10),
  renewIntervalSeconds: seconds(2),
  usageRefreshSeconds: seconds(60),
  /** How often the leader reads upstream health from the store into Upstream status. */
  upstreamHealthRefreshSeconds: seconds(10),
  /** How often notifiers are evaluated and due deliveries attempted (docs/notifications.md). */
  notificationIntervalSeconds: seconds(30),
  /** Lets notifiers send to loopback addresses (tests, local mode); link-local stays refused. */
  notifierAllowLoopback: flagBoolean,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type OperatorSettings = z.output<typeof operatorSettingsSchema>;

const ENVIRONMENT: Record<string, keyof OperatorSettings> = {
  TOLLGATE_NAMESPACE: 'namespace',
  REDIS_URL: 'redisUrl',
  TOLLGATE_REDIS_PREFIX: 'redisPrefix',
  TOLLGATE_DATA_DIR: 'dataDir',
  TOLLGATE_PEPPER_FILE: 'pepperFile',
  TOLLGATE_CREDENTIAL_KEY_FILE: 'credentialKeyFile',
  KUBECONFIG: 'kubeconfig',
  TOLLGATE_METRICS_PORT: 'metricsPort',
  TOLLGATE_METRICS_HOST: 'metricsHost',
  TOLLGATE_SPEND_GAUGES: 'spendGauges',
  TOLLGATE_RESYNC_SECONDS: 'resyncSeconds',
  TOLLGATE_LEASE_DURATION_SECONDS: 'leaseDurationSeconds',
  TOLLGATE_RENEW_INTERVAL_SECONDS: 'renewIntervalSeconds',
  TOLLGATE_USAGE_REFRESH_SECONDS: 'usageRefreshSeconds',
  TOLLGATE_UPSTREAM_HEALTH_REFRESH_SECONDS: 'upstreamHealthRefreshSeconds',
  TOLLGATE_NOTIFICATION_INTERVAL_SECONDS: 'notificationIntervalSeconds',
  TOLLGATE_NOTIFIER_ALLOW_LOOPBACK: 'notifierAllowLoopback',
  TOLLGATE_LOG_LEVEL: 'logLevel',
};

function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `--name value`, `--name=value`, and bare `--spend-gauges` (true). */
export function parseFlags(args: readonly string[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) throw new Error(`unexpected argument '${arg}'`);
    const body = arg.slice(2);
    const equals = body.indexOf('=');
    if (equals >= 0) {
      out[camelCase(body.slice(0, equals))] = body.slice(equals + 1);
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) out[camelCase(body)] = true;
    else {
      out[camelCase(body)] = next;
      i++;
    }
  }
  return out;
}

export function parseOperatorSettings(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): OperatorSettings {
  const fromEnvironment: Record<string, string> = {};
  for (const [variable, key] of Object.entries(ENVIRONMENT)) {
    const value = environment[variable];
    if (value !== undefined && value !== '') fromEnvironment[key] = value;
  }
  const result = operatorSettingsSchema
    .strict()
    .safeParse({ ...fromEnvironment, ...parseFlags(args) });
  if (!result.success) {
    throw new Error(`invalid operator configuration: ${z.prettifyError(result.error)}`);
  }
  return Object.freeze(result.data);
}

/** Reads the environment once. */
export function loadOperatorSettings(args: readonly string[]): OperatorSettings {
  return parseOperatorSettings(args, process.env);
}
