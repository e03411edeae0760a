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
