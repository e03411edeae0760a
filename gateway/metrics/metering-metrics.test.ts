import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../store/usage-buckets.js';
import {
  createMeteringMetrics,
  observeSettledRequest,
  type SettledRequest,
} from './metering-metrics.js';

function settled(overrides: Partial<SettledRequest>): SettledRequest {
  return {
    platform: 'OpenAI',
    group: 'team',
    model: 'gpt-5',
    status: 200,
    accuracy: 'exact',
    durationMs: 120,
    timeToFirstByteMs: 40,
    usage: { ...emptyUsage(), inputUncached: 10, output: 5 },
    costNano: 2_000_000,
    ...overrides,
  };
}

describe('observeSettledRequest', () => {
  it('keeps each label set apart, however often its label sets are reused', async () => {
    const registry = new Registry();
    const metrics = createMeteringMetrics(registry);
    observeSettledRequest(metrics, settled({}));
    observeSettledRequest(metrics, settled({ accuracy: 'estimated', timeToFirstByteMs: null }));
    observeSettledRequest(metrics, settled({ model: 'other', status: 502, costNano: 0 }));
    observeSettledRequest(
      metrics,
      settled({ usage: { ...emptyUsage(), cacheRead: 7 }, durationMs: 2_000 }),
    );
    const text = await registry.metrics();
    const gpt = 'platform="OpenAI",group="team",model="gpt-5",status_class="2xx"';
    const other = 'platform="OpenAI",group="team",model="other",status_class="5xx"';
    const lines = text.split('\n');
    expect(lines).toContain(`tollgate_settled_requests_total{${gpt},accuracy="exact"} 2`);
    expect(lines).toContain(`tollgate_settled_requests_total{${gpt},accuracy="estimated"} 1`);
    expect(lines).toContain(`tollgate_settled_requests_total{${other},accuracy="exact"} 1`);
    expect(lines).toContain(`tollgate_tokens_total{${gpt},bucket="inputUncached"} 20`);
    expect(lines).toContain(`tollgate_tokens_total{${gpt},bucket="output"} 10`);
    expect(lines).toContain(`tollgate_tokens_total{${gpt},bucket="cacheRead"} 7`);
    expect(lines).toContain(`tollgate_tokens_total{${other},bucket="output"} 5`);
    // A bucket without tokens has no series.
    expect(text).not.toContain('bucket="cacheWrite5m"');
    expect(lines).toContain(`tollgate_cost_usd_total{${gpt}} 0.006`);
    expect(text).not.toContain(`tollgate_cost_usd_total{${other}}`);
    expect(lines).toContain(`tollgate_settled_request_duration_seconds_count{${gpt}} 3`);
    expect(lines).toContain(`tollgate_settled_request_duration_seconds_sum{${gpt}} 2.24`);
    expect(lines).toContain(`tollgate_settled_time_to_first_byte_seconds_count{${gpt}} 2`);
    expect(lines).toContain(`tollgate_settled_request_duration_seconds_count{${other}} 1`);
  });
});
