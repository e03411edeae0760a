/**
 * `tollgate console` configuration: flags and `TOLLGATE_CONSOLE_*` environment variables, parsed
 * once by zod into a frozen object that `build(config)` takes. Nothing else reads the environment.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { trustedProxyList } from '../../network/trusted-proxy-list.js';

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().min(1).max(31_536_000);
const flag = z
  .enum(['true', 'false', '1', '0', 'auto'])
  .transform((value) => (value === 'auto' ? 'auto' : value === 'true' || value === '1'));

const oidcSchema = z.object({
  issuer: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  redirectUrl: z.url(),
  usernameClaim: z.string().min(1).default('email'),
  groupsClaim: z.string().min(1).default('groups'),
  /** Prefixed to OIDC usernames and groups (like the API server's --oidc-username-prefix). */
  usernamePrefix: z.string().default(''),
  groupsPrefix: z.string().default(''),
  scopes: z.string().min(1).default('openid email profile groups'),
  /** The provider's name on the sign-in button; absent: the issuer's host. */
  displayName: z.string().min(1).max(100).optional(),
  /** Only for a local test issuer on http://127.0.0.1. */
  allowInsecureIssuer: z.boolean().default(false),
});

export const consoleConfigSchema = z.object({
  host: z.string().min(1).default('0.0.0.0'),
  port: port.default(8084),
  /** Prometheus metrics on their own port; absent: not served (the chart sets 9093). */
  metricsPort: port.optional(),
  metricsHost: z.string().min(1).default('0.0.0.0'),
  /** A kubeconfig file; absent: the in-cluster ServiceAccount. */
  kubeconfig: z.string().min(1).optional(),
  /** Namespace of the operator: the local users Secret and the Upstream credential Secrets. */
  operatorNamespace: z.string().min(1).default('tollgate-system'),
  usersSecret: z.string().min(1).default('tollgate-console-users'),
  /** Sign-in with local users from the Secret (on by default). */
  localUsers: z.boolean().default(true),
  oidc: oidcSchema.optional(),
  /**
   * Redis for sessions (they survive restarts and are shared by replicas); when it is the gateway's
   * store, the dashboard also reads the account's live spend and requests in flight from it.
   */
  redisUrl: z.string().min(1).optional(),
  /** The store's key prefix in that Redis (the gateway's `--redis-prefix`; default `tg:`). */
  redisPrefix: z.string().min(1).optional(),
  /** Without Redis: sessions in memory, persisted to this file when set (local mode). */
  sessionFile: z.string().min(1).optional(),
  sessionIdleSeconds: seconds.default(3600),
  sessionMaxSeconds: seconds.default(43_200),
  /** Secure cookies: true, false, or auto (when the request came over TLS). */
  cookieSecure: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /**
   * Where people open the console (`https://console.example.com`): state-changing calls are
   * accepted from these origins only, never from the request's own Host header. Empty: the
   * console's listening address on loopback (`http://localhost:<port>`, `http://127.0.0.1:<port>`,
   * `http://[::1]:<port>`, and the bound address when it is a specific one).
   */
  publicOrigins: z.array(z.url({ protocol: /^https?$/ })).default([]),
  /** Further origins allowed on state-changing calls (another site that calls the API). */
  allowedOrigins: z.array(z.url()).default([]),
  /**
   * Proxies (addresses or CIDR ranges, comma-separated) whose `X-Forwarded-For` gives the client
   * address for the sign-in limits and whose `X-Forwarded-Proto: https` makes the cookie Secure
   * under `cookieSecure: auto`. From anyone else both headers are ignored.
   */
  trustedProxies: trustedProxyList,
  timeZone: z.string().min(1).default('UTC'),
  /** PostgreSQL of the ledger; without it the usage endpoints answer 503. */
  databaseUrl: z.string().min(1).optional(),
  /**
   * Failed sign-ins: per (username, client address) the first `freeFailures` are free, then each
   * failure doubles the wait before the next attempt (1 s, 2 s, 4 s ... up to `maxDelaySeconds`);
   * beyond that, ceilings per username (all addresses) and per address (all usernames) in the
   * window. A pair's count is forgotten `windowSeconds` after its last failure.
   */
  signInFailures: z
    .object({
      freeFailures: z.number().int().min(0).default(3),
      maxDelaySeconds: z.number().int().min(1).default(900),
      perUsername: z.number().int().min(1).default(100),
      perAddress: z.number().int().min(1).default(50),
      windowSeconds: z.number().int().min(1).default(900),
    })
    .prefault({}),
  webRoot: z.string().min(1).optional(),
  /**
   * The gateway's public URL, as clients reach it (`https://gw.example.com`); written into the
   * client configuration. Without it the client-config route answers 409 and key creation and
   * rotation return `clientConfig: null`.
   */
  gatewayUrl: z.url({ protocol: /^https?$/ }).optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ConsoleConfigInput = z.input<typeof consoleConfigSchema>;
export type ConsoleConfig = Readonly<z.output<typeof consoleConfigSchema>>;

export function parseConsoleConfigObject(input: ConsoleConfigInput): ConsoleConfig {
  const result = consoleConfigSchema.safeParse(input);
  if (!result.success) {
    throw new Error(`invalid console configuration: ${z.prettifyError(result.error)}`);
  }
  return Object.freeze(result.data);
}

const options = {
  host: { type: 'string' },
  port: { type: 'string' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  kubeconfig: { type: 'string' },
  'operator-namespace': { type: 'string' },
  'users-secret': { type: 'string' },
  'local-users': { type: 'string' },
  'oidc-issuer': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-client-secret': { type: 'string' },
  'oidc-redirect-url': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-scopes': { type: 'string' },
  'oidc-display-name': { type: 'string' },
  'redis-url': { type: 'string' },
  'redis-prefix': { type: 'string' },
  'session-file': { type: 'string' },
  'session-idle-seconds': { type: 'string' },
  'session-max-seconds': { type: 'string' },
  'cookie-secure': { type: 'string' },
  'public-origins': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'trusted-proxies': { type: 'string' },
  'time-zone': { type: 'string' },
  'database-url': { type: 'string' },
  'web-root': { type: 'string' },
  'gateway-url': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

type Environment = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Flags win over `TOLLGATE_CONSOLE_<FLAG>` (upper case, dashes as underscores). */
export function parseConsoleConfig(
  args: readonly string[],
  environment: Environment,
): ConsoleConfig {
  const { values } = parseArgs({ args: [...args], options, strict: true });
  const read = (name: keyof typeof options): string | undefined =>
    nonEmpty(
      values[name] ?? environment[`TOLLGATE_CONSOLE_${name.toUpperCase().replaceAll('-', '_')}`],
    );
  const issuer = read('oidc-issuer');
  const secure = flag.parse(read('cookie-secure') ?? 'auto');
  const localUsers = read('local-users');
  const input: Record<string, unknown> = {
    host: read('host'),
    port: read('port'),
    metricsPort: read('metrics-port'),
    metricsHost: read('metrics-host'),
    kubeconfig: read('kubeconfig') ?? nonEmpty(environment.KUBECONFIG),
    operatorNamespace: read('operator-namespace'),
    usersSecret: read('users-secret'),
    localUsers: localUsers === undefined ? undefined : flag.parse(localUsers) === true,
    redisUrl: read('redis-url') ?? nonEmpty(environment.REDIS_URL),
    redisPrefix: read('redis-prefix') ?? nonEmpty(environment.TOLLGATE_REDIS_PREFIX),
    sessionFile: read('session-file'),
    sessionIdleSeconds: read('session-idle-seconds'),
    sessionMaxSeconds: read('session-max-seconds'),
    cookieSecure: secure,
    publicOrigins: list(read('public-origins')),
    allowedOrigins: list(read('allowed-origins')),
    trustedProxies: read('trusted-proxies'),
    timeZone: read('time-zone') ?? nonEmpty(environment.TOLLGATE_TIME_ZONE),
    databaseUrl: read('database-url') ?? nonEmpty(environment.TOLLGATE_DATABASE_URL),
    webRoot: read('web-root'),
    gatewayUrl: read('gateway-url'),
    logLevel: read('log-level'),
  };
  if (issuer !== undefined) {
    input.oidc = {
      issuer,
      clientId: read('oidc-client-id'),
      clientSecret: read('oidc-client-secret'),
      redirectUrl: read('oidc-redirect-url'),
      usernameClaim: read('oidc-username-claim'),
      groupsClaim: read('oidc-groups-claim'),
      usernamePrefix: read('oidc-username-prefix'),
      groupsPrefix: read('oidc-groups-prefix'),
      scopes: read('oidc-scopes'),
      displayName: read('oidc-display-name'),
    };
  }
  const defined = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  );
  return parseConsoleConfigObject(defined);
}
