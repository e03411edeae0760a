/**
 * Adapts a protocol's non-streamed extraction (`extract…Usage(body)`) to the accumulator shape, so a
 * JSON reply can go through the same tap (framing `json`) as a stream. Nothing fed (a body cut off
 * or not JSON) reports no usage.
 */
import { emptyReport, type UsageAccumulator, type UsageReport } from '../spec/usage-report.js';

export function createBodyUsageAccumulator(
  extract: (body: unknown) => UsageReport,
): UsageAccumulator {
  let body: { value: unknown } | undefined;
  return {
    feed(payload) {
      body = { value: payload };
    },
    result() {
      if (body === undefined) return emptyReport();
      if (typeof body.value === 'string') return { ...emptyReport(), flags: ['body-not-json'] };
      return extract(body.value);
    },
  };
}
