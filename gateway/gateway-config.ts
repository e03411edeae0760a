/**
 * Gateway configuration: flags (`--headers-timeout-ms 30000` or `--headers-timeout-ms=30000`) over
 * `TOLLGATE_*` environment variables (`TOLLGATE_HEADERS_TIMEOUT_MS`) over defaults, parsed once by
 * zod. The only place the gateway reads the environment.
 */
import { z } from 'zod';
import { trustedProxyList } from '../network/trusted-proxy-list.js';
import type { ProviderEndpoints } from './spec/upstream-provider.js';
import {
  DEFAULT_OTLP_EXPORT,
  checkOtlpExporter,
  otlpSettingsFromEnvironment,
  parseOtlpExport,
  tracingSwitchedOff,
  type OtlpExportSettings,
} from './tracing/otlp-environment.js';

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

export const gatewaySettingsSchema = z.object({
  port: port(8080),
  host: z.string().min(1).default('0.0.0.0'),
  metricsPort: port(9090),
  metricsHost: z.string().min(1).default('0.0.0.0'),
  trustedProxies: trustedProxyList,
  pepperFile: z.string().min(1).optional(),
  credentialKeyFile: z.string().min(1).optional(),
  redisUrl: z.string().min(1).optional(),
  redisPrefix: z.string().min(1).optional(),
  dataDir: z.string().min(1).optional(),
  connectTimeoutMs: milliseconds(10_000),
  headersTimeoutMs: milliseconds(300_000),
  /** Longest silence between two chunks of an upstream reply (Groups may set their own). */
  bodyTimeoutMs: milliseconds(300_000),
  /**
   * How long a streamed reply may take after its 2xx headers to send its first event before the
   * attempt is abandoned and the call fails over; 0 = off (Groups may set their own).
   */
  firstOutputTimeoutMs: z.coerce.number().int().min(0).max(3_600_000).default(0),
  leaseMs: milliseconds(60_000),
  upstreamRefreshMs: milliseconds(30_000),
  /** How long a key policy read from the store is reused (0 = every request reads it). */
  keyPolicyCacheMs: z.coerce.number().int().min(0).max(1_000).default(500),
  /**
   * How long a clean claim of an upstream without limits is reused (0 = every call claims); a
   * cool-down started by another replica is seen at most this much later.
   */
  upstreamClaimCacheMs: z.coerce.number().int().min(0).max(1_000).default(500),
  drainTimeoutMs: milliseconds(30_000),
  /** Longest time a client may take to send the request headers (then 408). */
  requestHeadersTimeoutMs: milliseconds(30_000),
  /** Longest time a client may take to send the whole request, body included (then 408). */
  requestTimeoutMs: milliseconds(300_000),
  /** Longest silence between two chunks of a request body (then 408). */
  requestBodyIdleTimeoutMs: milliseconds(30_000),
  bodyLimitBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  timeZone: z
    .string()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'unknown time zone'),
  /** A LiteLLM `model_prices_and_context_window.json` laid over the shipped price table. */
  priceFile: z.string().min(1).optional(),
  /** How long a settlement the store refused is retried (backoff 100 ms doubling to 5 s). */
  settlementRetryMs: milliseconds(300_000),
  /** Settlements waiting for the store at most; beyond it they are left to their lease. */
  settlementQueueLimit: z.coerce.number().int().positive().default(10_000),
  /**
   * Captured calls waiting in the store for the recorder at most (docs/captures.md); beyond it the
   * oldest are dropped.
   */
  captureQueueLimit: z.coerce.number().int().positive().default(10_000),
  /** Bytes of captured calls' JSON waiting in the store at most; beyond it the oldest are dropped. */
  captureQueueBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /**
   * Bytes of replies kept for their capture by all the requests in flight together; a reply that
   * would pass it is captured truncated (docs/captures.md).
   */
  captureReplyBudgetBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
  /** Period of the sweep that charges expired unsettled leases; 0 turns the sweep off. */
  leaseSweepMs: z.coerce.number().int().min(0).default(30_000),
  /** Upstreams one request may try (failover before the first byte); 1 = no failover. */
  upstreamMaxAttempts: z.coerce.number().int().min(1).max(32).default(3),
  /** No further upstream attempt starts this long after the first one started. */
  upstreamFailoverDeadlineMs: milliseconds(30_000),
  /** Consecutive failures (5xx, connect errors, timeouts) that open an upstream's circuit. */
  upstreamFailureThreshold: z.coerce.number().int().min(1).default(3),
  /** Cool-down without a reset time, and the first open period; doubled per repeat. */
  upstreamCooldownBaseMs: milliseconds(5_000),
  /** Longest cool-down or open period. */
  upstreamCooldownMaxMs: milliseconds(300_000),
  /** How long the one half-open probe call holds its claim before another caller may probe. */
  upstreamProbeLeaseMs: milliseconds(30_000),
  /** How long a session stays bound to its upstream, for Groups that do not set it; 0 = off. */
  stickySessionTtlMs: z.coerce.number().int().min(0).default(3_600_000),
  /** Responses over WebSocket: `response.create` messages one connection may send. */
  websocketMaxMessages: z.coerce.number().int().positive().default(1_000),
  /** Responses over WebSocket: a connection with no turn running and no message this long closes. */
  websocketIdleTimeoutMs: milliseconds(600_000),
  /** Responses over WebSocket: the largest message accepted (closed with 1009 beyond). */
  websocketMaxMessageBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  /**
   * OTLP/HTTP collector the gateway exports its trace spans to (protobuf): a base URL, `/v1/traces`
   * added unless it ends with it (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`'s is used as is). Absent:
   * tracing is off (docs/observability.md).
   */
  otlpEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  /** Share of new traces sampled (parent-based; a caller's sampled flag: traceParentSampling). */
  traceSampleRatio: z.coerce.number().min(0).max(1).default(1),
  /**
   * Whether a caller's `traceparent` sampled flag decides for its trace (`respect`) or the ratio
   * decides every call, continuing the caller's trace id and parent either way (`ignore`).
   */
  traceParentSampling: z.enum(['respect', 'ignore']).default('respect'),
  /** Ended spans waiting for export at most; beyond it they are dropped and counted. */
  traceQueueSize: z.coerce.number().int().positive().max(1_000_000).default(2_048),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** No cloud endpoint overridden: the providers' public addresses. */
export const PUBLIC_PROVIDER_ENDPOINTS: ProviderEndpoints = Object.freeze({
  awsSts: null,
  gceMetadata: null,
  azureAuthority: null,
});

/**
 * Where the cloud providers' token sources are, read once from the standard variables their own
 * SDKs read (null = the public address): `AWS_ENDPOINT_URL_STS`, `GCE_METADATA_HOST`,
 * `AZURE_AUTHORITY_HOST`.
 */
export type GatewaySettings = z.output<typeof gatewaySettingsSchema> & {
  providerEndpoints: ProviderEndpoints;
  otlpExport: OtlpExportSettings;
};

const endpointVariable = z
  .string()
  .trim()
  .transform((value) => (value === '' ? null : value.replace(/\/+$/, '')))
  .nullable()
  .default(null);

const providerEndpointsSchema = z.object({
  AWS_ENDPOINT_URL_STS: endpointVariable.refine(
    (value) => value === null || /^https?:\/\/[^\s]+$/.test(value),
    'AWS_ENDPOINT_URL_STS must be an http(s) URL',
  ),
  GCE_METADATA_HOST: endpointVariable.refine(
    (value) => value === null || /^[^\s/]+$/.test(value),
    'GCE_METADATA_HOST must be host[:port]',
  ),
  AZURE_AUTHORITY_HOST: endpointVariable.refine(
    (value) => value === null || /^https?:\/\/[^\s]+$/.test(value),
    'AZURE_AUTHORITY_HOST must be an http(s) URL',
  ),
});

/** The provider endpoints from the environment, parsed once. */
export function parseProviderEndpoints(
  environment: Record<string, string | undefined>,
): ProviderEndpoints {
  const result = providerEndpointsSchema.safeParse({
    AWS_ENDPOINT_URL_STS: environment.AWS_ENDPOINT_URL_STS,
    GCE_METADATA_HOST: environment.GCE_METADATA_HOST,
    AZURE_AUTHORITY_HOST: environment.AZURE_AUTHORITY_HOST,
  });
  if (!result.success) {
    throw new Error(`invalid gateway configuration: ${z.prettifyError(result.error)}`);
  }
  return Object.freeze({
    awsSts: result.data.AWS_ENDPOINT_URL_STS,
    gceMetadata: result.data.GCE_METADATA_HOST,
    azureAuthority: result.data.AZURE_AUTHORITY_HOST,
  });
}

/** What `build()` needs: the settings plus the pepper and credential key bytes. */
export type AppConfig = Omit<
  GatewaySettings,
  'pepperFile' | 'credentialKeyFile' | 'redisUrl' | 'redisPrefix' | 'dataDir'
> & { pepper: Buffer; credentialKey: Buffer };

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

function parseFlags(args: readonly string[]): Record<string, string> {
  const known = new Map(Object.keys(gatewaySettingsSchema.shape).map((key) => [kebab(key), key]));
  const values: Record<string, string> = {};
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? '';
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argument);
    const key = match === null ? undefined : known.get(match[1] ?? '');
    if (match === null || key === undefined) throw new Error(`unknown flag '${argument}'`);
    const value = match[2] ?? args[++index];
    if (value === undefined) throw new Error(`flag '${argument}' needs a value`);
    values[key] = value;
  }
  return values;
}

export function parseGatewaySettings(
  args: readonly string[],
  environment: Record<string, string | undefined>,
): GatewaySettings {
  const fromEnvironment: Record<string, string> = {};
  for (const key of Object.keys(gatewaySettingsSchema.shape)) {
    const value = environment[`TOLLGATE_${snake(key)}`];
    if (value !== undefined && value !== '') fromEnvironment[key] = value;
  }
  const redisUrl = environment.REDIS_URL;
  if (fromEnvironment.redisUrl === undefined && redisUrl !== undefined && redisUrl !== '') {
    fromEnvironment.redisUrl = redisUrl;
  }
  // The standard OpenTelemetry variables, under the `TOLLGATE_*` ones.
  const otlp = otlpSettingsFromEnvironment(environment);
  if (fromEnvironment.otlpEndpoint === undefined && otlp.otlpEndpoint !== undefined) {
    fromEnvironment.otlpEndpoint = otlp.otlpEndpoint;
  }
  if (fromEnvironment.traceSampleRatio === undefined && otlp.traceSampleRatio !== undefined) {
    fromEnvironment.traceSampleRatio = otlp.traceSampleRatio;
  }
  const flags = parseFlags(args);
  const result = gatewaySettingsSchema.safeParse({ ...fromEnvironment, ...flags });
  if (!result.success) {
    throw new Error(`invalid gateway configuration: ${z.prettifyError(result.error)}`);
  }
  // `OTEL_SDK_DISABLED` / `OTEL_TRACES_EXPORTER=none` turn tracing off, whatever endpoint is set.
  const otlpEndpoint = tracingSwitchedOff(environment) ? undefined : result.data.otlpEndpoint;
  if (otlpEndpoint !== undefined) checkOtlpExporter(environment);
  return Object.freeze({
    ...result.data,
    otlpEndpoint,
    providerEndpoints: parseProviderEndpoints(environment),
    otlpExport: parseOtlpExport(environment, {
      endpointFlagGiven: flags.otlpEndpoint !== undefined,
    }),
  });
}

/** Reads the environment once: flags over `TOLLGATE_*` over defaults. */
export function loadGatewaySettings(args: readonly string[]): GatewaySettings {
  return parseGatewaySettings(args, process.env);
}

/** App config with defaults for everything but the secrets (tests, local mode). */
export function createAppConfig(
  secrets: { pepper: Buffer; credentialKey: Buffer },
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const parsed: Partial<GatewaySettings> = gatewaySettingsSchema.parse({});
  delete parsed.pepperFile;
  delete parsed.credentialKeyFile;
  delete parsed.redisUrl;
  delete parsed.redisPrefix;
  delete parsed.dataDir;
  const settings = {
    ...parsed,
    providerEndpoints: PUBLIC_PROVIDER_ENDPOINTS,
    otlpExport: DEFAULT_OTLP_EXPORT,
  } as Omit<AppConfig, 'pepper' | 'credentialKey'>;
  return { ...settings, ...secrets, ...overrides };
}
