/** One flag of a `tollgate` command, as its help text and the argument check read it. */
export interface FlagSpec {
  /** Without the leading `--`. */
  name: string;
  /** The placeholder of its value (`PORT`); absent for a flag that takes none (`--no-demo`). */
  value?: string;
  /** The environment variable it overrides. */
  env?: string;
  /** What it is when not given. */
  fallback?: string;
  about: string;
}

export const LOG_LEVEL_FLAG: FlagSpec = {
  name: 'log-level',
  value: 'LEVEL',
  env: 'TOLLGATE_LOG_LEVEL',
  fallback: 'info',
  about: 'fatal, error, warn, info, debug, trace or silent',
};

/** The store's key prefix, shared by the gateway, operator and recorder. */
export const REDIS_PREFIX_FLAG: FlagSpec = {
  name: 'redis-prefix',
  value: 'PREFIX',
  env: 'TOLLGATE_REDIS_PREFIX',
  fallback: 'tg:',
  about: 'Prefix of every Redis key',
};

export const METRICS_HOST_FLAG: FlagSpec = {
  name: 'metrics-host',
  value: 'HOST',
  env: 'TOLLGATE_METRICS_HOST',
  fallback: '0.0.0.0',
  about: 'Metrics address',
};

/** The gateway's tracing flags, which `tollgate local` passes on to its gateway. */
export const TRACING_FLAGS: readonly FlagSpec[] = [
  {
    name: 'otlp-endpoint',
    value: 'URL',
    env: 'TOLLGATE_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT',
    fallback: 'off',
    about: 'OTLP/HTTP collector for trace spans (/v1/traces added)',
  },
  {
    name: 'trace-sample-ratio',
    value: 'RATIO',
    env: 'TOLLGATE_TRACE_SAMPLE_RATIO, OTEL_TRACES_SAMPLER(_ARG)',
    fallback: '1',
    about: "Share of new traces sampled, 0 to 1 (a caller's flag: --trace-parent-sampling)",
  },
  {
    name: 'trace-parent-sampling',
    value: 'MODE',
    env: 'TOLLGATE_TRACE_PARENT_SAMPLING',
    fallback: 'respect',
    about: "respect a caller's sampled flag, or ignore it (the ratio decides every call)",
  },
];
