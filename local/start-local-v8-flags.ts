/**
 * V8 settings for the `tollgate local` process only, applied before its modules load. `tollgate
 * gateway`, `operator`, `recorder` and `console` keep V8's defaults.
 *
 * `--liftoff-only`: WebAssembly is compiled by the baseline compiler only. The only WebAssembly in
 * the process is the embedded ledger (PGlite, a 10 MB module); optimizing it as well kept the
 * optimized copy of its code and the compiler's memory resident, about 70 MB at rest. JavaScript,
 * the gateway's hot path included, is compiled as before. The ledger's queries run on baseline code;
 * at local-mode volumes that costs no measurable CPU per call (figures in docs/benchmarks.md
 * as of 1a81819, "Memory at rest").
 *
 * V8 reads the flag when it compiles WebAssembly, so setting it at run time, before PGlite loads,
 * takes effect (a flag read when the heap is set up, such as `--max-semi-space-size`, would not).
 */
import { setFlagsFromString } from 'node:v8';

export const LOCAL_V8_FLAGS: readonly string[] = ['--liftoff-only'];

/** Applies the flags unless `TOLLGATE_LOCAL_V8_DEFAULTS=true` (V8's defaults, for comparison). */
export function applyLocalV8Flags(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  if (env['TOLLGATE_LOCAL_V8_DEFAULTS'] === 'true') return [];
  for (const flag of LOCAL_V8_FLAGS) setFlagsFromString(flag);
  return LOCAL_V8_FLAGS;
}
