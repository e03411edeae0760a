/**
 * V8 settings for the `tollgate local` process only, applied before its modules load. `tollgate
 * gateway`, `operator`, `recorder` and `console` keep V8's defaults.
 *
 * `--liftoff-only`: WebAssembly is compiled by the baseline compiler only. The large WebAssembly
 * module in the process is the embedded ledger (PGlite, 10 MB); optimizing it as well kept the
 * optimized copy of its code and the compiler's memory resident, about 70 MB at rest. The other is
 * undici's HTTP/1.1 parser (llhttp), which parses every upstream reply: it runs on baseline code
 * too. JavaScript, the gateway's hot path included, is compiled as before. At local-mode volumes
 * neither costs measurable CPU per call (docs/benchmarks.md, "Warm-up, flags and the embedded
 * ledger's batches"; at rest: as of 1a81819, "Memory at rest").
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
