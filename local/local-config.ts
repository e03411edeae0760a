/** `tollgate local` configuration: flags and `TOLLGATE_*` environment variables, parsed once. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseGatewaySettings, type GatewaySettings } from '../gateway/gateway-config.js';
import { DEFAULT_RETENTION_DAYS } from '../ledger/apply-retention.js';
import { LOG_FORMATS } from './logging/create-log-destination.js';

const port = z.coerce.number().int().min(0).max(65535);

const configSchema = z.object({
  dataDirectory: z.string().min(1),
  host: z.string().min(1),
  port,
  apiPort: port,
  metricsPort: port,
  operatorMetricsPort: port,
  /** The console (web app and its API). */
  consolePort: port,
  /**
   * Where people open the console, when not at its own address on this machine (local mode
   * bound to another interface): the Origin check accepts these.
   */
  consolePublicOrigins: z.array(z.url({ protocol: /^https?$/ })).default([]),
  redisUrl: z.string().min(1).optional(),
  /** PostgreSQL for the ledger; without it, embedded PGlite in `<data>/ledger`. */
  databaseUrl: z.string().min(1).optional(),
  retentionDays: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_RETENTION_DAYS),
  /** `json` or `pretty`; absent: pretty on a terminal, JSON otherwise. */
  logFormat: z.enum(LOG_FORMATS).optional(),
});

export type LocalConfig = Readonly<z.infer<typeof configSchema>> & {
  /** Gateway settings from `TOLLGATE_*` variables (trusted proxies, timeouts, time zone...). */
  gateway: GatewaySettings;
};

/**
 * Ports after the gateway's: API +1, gateway metrics +2, operator metrics +3, console +4 (0 = any
 * free port).
 */
function nextPort(base: number, offset: number): number {
  return base === 0 ? 0 : base + offset;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

export function parseLocalConfig(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): LocalConfig {
  const { values } = parseArgs({
    args: [...args],
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      'api-port': { type: 'string' },
      'metrics-port': { type: 'string' },
      'operator-metrics-port': { type: 'string' },
      'console-port': { type: 'string' },
      host: { type: 'string' },
      'database-url': { type: 'string' },
      'retention-days': { type: 'string' },
      'log-format': { type: 'string' },
      'log-level': { type: 'string' },
      'otlp-endpoint': { type: 'string' },
      'trace-sample-ratio': { type: 'string' },
      'trace-parent-sampling': { type: 'string' },
    },
    strict: true,
  });
  const gatewayPort = port.parse(values.port ?? environment.TOLLGATE_PORT ?? '8080');
  const redisUrl = environment.REDIS_URL;
  const databaseUrl = values['database-url'] ?? environment.TOLLGATE_DATABASE_URL;
  const result = configSchema.safeParse({
    dataDirectory: values.data ?? environment.TOLLGATE_DATA_DIR ?? './.tollgate',
    host: values.host ?? environment.TOLLGATE_HOST ?? '127.0.0.1',
    port: gatewayPort,
    apiPort: values['api-port'] ?? environment.TOLLGATE_API_PORT ?? nextPort(gatewayPort, 1),
    metricsPort:
      values['metrics-port'] ?? environment.TOLLGATE_METRICS_PORT ?? nextPort(gatewayPort, 2),
    operatorMetricsPort:
      values['operator-metrics-port'] ??
      environment.TOLLGATE_OPERATOR_METRICS_PORT ??
      nextPort(gatewayPort, 3),
    consolePort:
      values['console-port'] ?? environment.TOLLGATE_CONSOLE_PORT ?? nextPort(gatewayPort, 4),
    consolePublicOrigins: environment.TOLLGATE_CONSOLE_PUBLIC_ORIGINS?.split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
    redisUrl: nonEmpty(redisUrl),
    databaseUrl: nonEmpty(databaseUrl),
    retentionDays: values['retention-days'] ?? environment.TOLLGATE_RETENTION_DAYS,
    logFormat: nonEmpty(values['log-format'] ?? environment.TOLLGATE_LOG_FORMAT)?.toLowerCase(),
  });
  if (!result.success) {
    throw new Error(`invalid configuration: ${z.prettifyError(result.error)}`);
  }
  // The tracing flags are the gateway's own: passed on as they are.
  const gatewayFlags: string[] = [];
  for (const name of ['otlp-endpoint', 'trace-sample-ratio', 'trace-parent-sampling'] as const) {
    const value = values[name];
    if (value !== undefined) gatewayFlags.push(`--${name}`, value);
  }
  const gateway = parseGatewaySettings(gatewayFlags, {
    ...environment,
    TOLLGATE_PORT: undefined,
    TOLLGATE_LOG_LEVEL: values['log-level'] ?? environment.TOLLGATE_LOG_LEVEL,
  });
  return Object.freeze({ ...result.data, gateway });
}
