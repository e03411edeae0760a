import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { KeyedCounter, KeyedHistogram } from './keyed-metrics.js';

const BUCKETS = [0.01, 0.1, 0.5, 1];
const LABELS = ['platform', 'status_class'] as const;

/** The same operations on prom-client's own metrics and on the keyed ones. */
function both() {
  const own = new Registry();
  const keyed = new Registry();
  const counter = new Counter({
    name: 'calls_total',
    help: 'Calls.',
    labelNames: LABELS,
    registers: [own],
  });
  const histogram = new Histogram({
    name: 'call_seconds',
    help: 'Call time.',
    labelNames: LABELS,
    buckets: BUCKETS,
    registers: [own],
  });
  const keyedCounter = new KeyedCounter({
    name: 'calls_total',
    help: 'Calls.',
    labelNames: LABELS,
    registers: [keyed],
  });
  const keyedHistogram = new KeyedHistogram({
    name: 'call_seconds',
    help: 'Call time.',
    labelNames: LABELS,
    buckets: BUCKETS,
    registers: [keyed],
  });
  const run = (
    step: (
      c: typeof counter | typeof keyedCounter,
      h: typeof histogram | typeof keyedHistogram,
    ) => void,
  ) => {
    step(counter, histogram);
    step(keyedCounter, keyedHistogram);
  };
  return { own, keyed, run, keyedCounter, keyedHistogram };
}

function feed(run: ReturnType<typeof both>['run']) {
  run((counter, histogram) => {
    counter.inc({ platform: 'OpenAI', status_class: '2xx' });
    counter.inc({ status_class: '2xx', platform: 'OpenAI' }, 2.5);
    counter.inc({ platform: 'Anthropic', status_class: '4xx' });
    for (const value of [0, 0.01, 0.05, 0.1, 0.7, 1, 3, 120]) {
      histogram.observe({ platform: 'OpenAI', status_class: '2xx' }, value);
    }
    histogram.observe({ platform: 'Gemini', status_class: '5xx' }, 0.2);
  });
}

describe('keyed metrics', () => {
  it('expose exactly what prom-client exposes for the same operations', async () => {
    const { own, keyed, run } = both();
    feed(run);
    expect(await keyed.metrics()).toBe(await own.metrics());
    expect(await keyed.getMetricsAsJSON()).toEqual(await own.getMetricsAsJSON());
  });

  it('aggregate across workers as prom-client metrics do', async () => {
    const first = both();
    const second = both();
    feed(first.run);
    feed(second.run);
    second.run((counter) => {
      counter.inc({ platform: 'OpenAI', status_class: '2xx' }, 4);
    });
    const ownTotal = AggregatorRegistry.aggregate([
      await first.own.getMetricsAsJSON(),
      await second.own.getMetricsAsJSON(),
    ]);
    const keyedTotal = AggregatorRegistry.aggregate([
      await first.keyed.getMetricsAsJSON(),
      await second.keyed.getMetricsAsJSON(),
    ]);
    expect(await keyedTotal.metrics()).toBe(await ownTotal.metrics());
  });

  it('record through a label set into the same series as through its labels', async () => {
    const { own, keyed, run, keyedCounter, keyedHistogram } = both();
    const labels = { platform: 'OpenAI', status_class: '2xx' };
    run((counter, histogram) => {
      if (counter instanceof KeyedCounter && histogram instanceof KeyedHistogram) {
        const set = keyedCounter.labelSet({ status_class: '2xx', platform: 'OpenAI' });
        counter.incIn(set, 2);
        counter.inc(labels);
        histogram.observeIn(set, 0.05);
        histogram.observe(labels, 3);
        return;
      }
      counter.inc(labels, 3);
      histogram.observe(labels, 0.05);
      histogram.observe(labels, 3);
    });
    expect(await keyed.metrics()).toBe(await own.metrics());
    expect(() => {
      keyedCounter.incIn(keyedCounter.labelSet(labels), -1);
    }).toThrow();
    // A set made before a reset records into a new series after it.
    const set = keyedHistogram.labelSet(labels);
    keyed.resetMetrics();
    keyedHistogram.observeIn(set, 0.5);
    expect((await keyedHistogram.get()).values.at(-1)).toMatchObject({ labels, value: 1 });
    expect((await keyedCounter.get()).values).toEqual([]);
  });

  it('refuse what prom-client refuses, and start over on reset', async () => {
    const { keyed, keyedCounter, keyedHistogram } = both();
    expect(() => {
      keyedCounter.inc({ platform: 'OpenAI', status_class: '2xx' }, -1);
    }).toThrow();
    expect(() => {
      keyedCounter.inc({ platform: 'OpenAI', status_class: '2xx' }, Number.NaN);
    }).toThrow();
    expect(() => {
      keyedHistogram.observe({ platform: 'OpenAI', status_class: '2xx' }, Infinity);
    }).toThrow();
    keyedCounter.inc({ platform: 'OpenAI', status_class: '2xx' });
    keyed.resetMetrics();
    expect((await keyedCounter.get()).values).toEqual([]);
  });
});
