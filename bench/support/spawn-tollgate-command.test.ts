import { describe, expect, it } from 'vitest';
import { metricSum } from './spawn-tollgate-command.js';
import { bannerValue } from './start-local-target.js';

describe('metricSum', () => {
  const page = [
    '# HELP tollgate_recorder_backlog_records Usage records not yet written.',
    'tollgate_recorder_backlog_records 3',
    'tollgate_recorder_records_inserted_total{stream="a"} 10',
    'tollgate_recorder_records_inserted_total{stream="b"} 5',
    'tollgate_recorder_records_inserted_totals 99',
  ].join('\n');

  it('sums every series of the metric, and only of that metric', () => {
    expect(metricSum(page, 'tollgate_recorder_backlog_records')).toBe(3);
    expect(metricSum(page, 'tollgate_recorder_records_inserted_total')).toBe(15);
  });

  it('is null for a metric the page does not have', () => {
    expect(metricSum(page, 'tollgate_recorder_lag_seconds')).toBeNull();
  });
});

describe('bannerValue', () => {
  it('reads a value of the start banner', () => {
    expect(
      bannerValue('  gateway metrics:    http://127.0.0.1:4002/metrics', 'gateway metrics'),
    ).toBe('http://127.0.0.1:4002/metrics');
    expect(bannerValue('  gateway:            http://127.0.0.1:4000', 'gateway')).toBe(
      'http://127.0.0.1:4000',
    );
    expect(bannerValue('{"msg":"gateway: started"}', 'gateway')).toBeUndefined();
  });
});
