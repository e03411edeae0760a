import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createCaptureRecorderMetrics } from './capture-recorder-metrics.js';

describe('the capture recorder metrics', () => {
  it('start every failure stage at zero, so that its first failure is an increase', async () => {
    const registry = new Registry();
    createCaptureRecorderMetrics(registry);
    const failed = await registry.getSingleMetric('tollgate_recorder_captures_failed_total')?.get();
    expect(failed?.values.map((value) => [value.labels.stage, value.value])).toEqual([
      ['read', 0],
      ['write', 0],
      ['acknowledge', 0],
    ]);
  });
});
