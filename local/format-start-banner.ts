/**
 * The lines `tollgate local` prints once it is ready, after every start-up log line. The console's
 * address and sign-in come last, so they stay on screen: on the first start the `admin` password
 * (printed this once) and the file that keeps it; on every later start where that file is. Pure.
 */
export interface StartBanner {
  gatewayUrl: string;
  metricsUrl: string;
  operatorMetricsUrl: string;
  consoleUrl: string;
  /** The `admin` password when it was created at this start, else undefined. */
  adminPassword: string | undefined;
  passwordFile: string;
  /** Whether the password file is still there (later starts). */
  passwordFileExists: boolean;
  apiUrl: string;
  kubeconfig: string;
  store: 'redis' | 'memory';
  /** PostgreSQL at a URL, or PGlite in the data folder. */
  ledger: 'postgresql' | 'pglite';
  /** The demo world's lines, or none without a demo world. */
  demo: readonly string[] | undefined;
}

function signIn(banner: StartBanner): string {
  if (banner.adminPassword !== undefined) {
    return `admin / ${banner.adminPassword} (shown once; also in ${banner.passwordFile})`;
  }
  if (banner.passwordFileExists) return `admin, password in ${banner.passwordFile}`;
  return `admin (its password file ${banner.passwordFile} was removed; the first start printed it)`;
}

export function formatStartBanner(banner: StartBanner): string {
  return [
    'tollgate local is running',
    `  gateway:            ${banner.gatewayUrl}`,
    `  gateway metrics:    ${banner.metricsUrl}`,
    `  operator metrics:   ${banner.operatorMetricsUrl}`,
    `  kubernetes API:     ${banner.apiUrl}`,
    `  kubeconfig:         ${banner.kubeconfig}`,
    `  store:              ${banner.store === 'redis' ? 'redis (REDIS_URL)' : 'memory, persisted to the data folder'}`,
    `  usage ledger:       ${banner.ledger === 'pglite' ? 'PGlite in the data folder (ledger/)' : 'PostgreSQL (--database-url)'}`,
    ...(banner.demo ?? [`  try: kubectl --kubeconfig ${banner.kubeconfig} apply -f examples/`]),
    'the console (open it in a browser; Ctrl-C stops tollgate local):',
    `  console:            ${banner.consoleUrl}`,
    `  console sign-in:    ${signIn(banner)}`,
    '',
  ].join('\n');
}
