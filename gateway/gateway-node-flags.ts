/**
 * Node flags the gateway runs with wherever Tollgate starts it: the chart passes them as
 * `NODE_OPTIONS` (`gateway.nodeOptions`, default the text below) and the benchmarks start the
 * gateway under test with them, so what is measured is what is deployed. A test keeps the chart's
 * default and this list the same.
 *
 * `--max-semi-space-size=32`: V8's young generation may grow to 32 MB per semi-space instead of
 * 16. A call allocates about 85 KB, nearly all of it dead by the call's end, but every scavenge
 * copies what the calls in flight still hold; half as many scavenges cost about 15 % less CPU per
 * non-streamed call at saturation, in most runs (docs/benchmarks.md, "The forward path, fourth
 * round"). The space grows only under allocation pressure, so an idle gateway's memory is
 * unchanged; under load it adds up to 32 MB (about 20 MB measured with 1,000 held streams). The flag
 * is read when the heap is set up, so it must be given when the process starts (a flag set at run
 * time has no effect on the heap's limits).
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
