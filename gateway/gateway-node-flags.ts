/**
 * Node flags the gateway runs with wherever Tollgate starts it: the chart passes them as
 * `NODE_OPTIONS` (`gateway.nodeOptions`, default the text below) and the benchmarks start the
 * gateway under test with them, so what is measured is what is deployed. A test keeps the chart's
 * default and this list the same.
 *
 * `--max-semi-space-size=16`: V8's young generation grows to at most 16 MB per semi-space under
 * load. V8 rounds the size up to a power of two, so the choices are 16 or 32 (24 was 32). A call
 * allocates about 75 KB, nearly all of it dead by the call's end; 32 MB semi-spaces mean half as
 * many scavenges, about 10 % less CPU per non-streamed call at saturation and 25 % less per
 * streamed one. But they commit 67 MB of young generation where 16 commit 34, and a gateway that
 * holds 1,000 streams after a saturating burst then peaked at 250 to 258 MB compiled: over the
 * 250 MB the gateway is sized for. With 16 it peaked at 195 to 223 MB (docs/benchmarks.md as
 * of 1a81819, "The seventh round"). The value is given explicitly so that it does not move with Node's defaults.
 * The flag is read when the heap is set up, so it must be given when the process starts (a flag set
 * at run time has no effect on the heap's limits).
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
