/**
 * Node flags the gateway runs with wherever Tollgate starts it: the chart passes them as
 * `NODE_OPTIONS` (`gateway.nodeOptions`, default the text below) and the benchmarks start the
 * gateway under test with them, so what is measured is what is deployed. A test keeps the chart's
 * default and this list the same.
 *
 * `--max-semi-space-size=24`: V8's young generation may grow to 24 MB per semi-space instead of
 * 16. A call allocates about 75 KB, nearly all of it dead by the call's end, but every scavenge
 * copies what the calls in flight still hold; fewer scavenges cost about 20 % less CPU per
 * non-streamed call at saturation. 24 costs as little CPU as 32 did, and less per streamed call,
 * and holds 1,000 streams after a saturating load in about 40 MB less at its peak
 * (docs/benchmarks.md, "The sixth round"). The space grows only under allocation pressure, so an
 * idle gateway's memory is unchanged. The flag is read when the heap is set up, so it must be given
 * when the process starts (a flag set at run time has no effect on the heap's limits).
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=24'];
