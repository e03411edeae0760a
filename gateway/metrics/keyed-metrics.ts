/**
 * Counters and histograms for the per-call path, read by a prom-client registry like its own
 * metrics. prom-client's `inc(labels)` and `observe(labels, value)` validate the label object,
 * and build a hash from its sorted names on every call: 1 to 1.5 µs each, and a forwarded call
 * makes eleven (docs/benchmarks.md as of 1a81819, "Hot path"). These keep one cell per label set, found by the
 * label values joined in the declared order, and build prom-client's `get()` shape only when
 * scraped, so the text format, the worker aggregation (`AggregatorRegistry`) and the default
 * registry functions are prom-client's own.
 *
 * Same contract as prom-client for what the gateway uses: `inc(labels, value = 1)` with a finite
 * value of at least 0, `observe(labels, value)` with a finite value, `get()`, `reset()`. Labels
 * are the declared names only (the compiler checks the call sites).
 */
import type { Metric, Registry } from 'prom-client';

/** One exposed value, as prom-client's own metrics give them to the registry. */
interface ExposedValue {
  labels: Readonly<Record<string, string | number>>;
  value: number;
  metricName?: string;
  /** prom-client's histogram buckets carry an exemplar slot; none are kept here. */
  exemplar?: null;
}

/** What the registry reads from a metric (`get()`), as prom-client's own metrics return it. */
export interface ExposedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ExposedValue[];
  aggregator: 'sum';
}

interface KeyedMetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: readonly Registry[];
}

type Labels<L extends string> = Readonly<Record<L, string>>;

/**
 * One label set, resolved once (its key built, its labels copied), for a caller that records into
 * the same sets again and again: recording into it is one map lookup, with no key to build.
 */
export interface LabelSet<L extends string> {
  readonly key: string;
  readonly labels: Labels<L>;
}

const SEPARATOR = '\u0001';

abstract class KeyedMetric<L extends string, Cell extends { labels: Labels<L> }> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum' as const;
  readonly #labelNames: readonly L[];
  protected readonly cells = new Map<string, Cell>();
  /**
   * The same cells by label value, one map level per declared name in the declared order: a call's
   * values (mostly the same strings again, whose hashes V8 keeps) are looked up as they are, with
   * no key string built and hashed per call. A miss takes the keyed way (`cells`), so values that
   * join to the same key (`200` and `'200'`) still share one cell.
   */
  #byValue = new Map<unknown, unknown>();

  constructor(options: KeyedMetricOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    for (const registry of options.registers) {
      registry.registerMetric(this as unknown as Metric);
    }
  }

  protected abstract newCell(labels: Labels<L>): Cell;

  protected cell(labels: Labels<L>): Cell {
    const names = this.#labelNames;
    const last = names.length - 1;
    let level = this.#byValue;
    for (let index = 0; index < last; index += 1) {
      const value = labels[names[index] as L];
      let next = level.get(value) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = last < 0 ? '' : labels[names[last] as L];
    const found = level.get(value) as Cell | undefined;
    if (found !== undefined) return found;
    let key = '';
    for (const name of names) key += labels[name] + SEPARATOR;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = this.newCell(this.#copy(labels));
      this.cells.set(key, cell);
    }
    level.set(value, cell);
    return cell;
  }

  /** The label set for `labels` (the declared names only), to record into with `…In`. */
  labelSet(labels: Labels<L>): LabelSet<L> {
    let key = '';
    for (const name of this.#labelNames) key += labels[name] + SEPARATOR;
    return { key, labels: this.#copy(labels) };
  }

  protected cellIn(set: LabelSet<L>): Cell {
    let cell = this.cells.get(set.key);
    if (cell === undefined) {
      cell = this.newCell(set.labels);
      this.cells.set(set.key, cell);
    }
    return cell;
  }

  #copy(labels: Labels<L>): Labels<L> {
    const copy = {} as Record<L, string>;
    for (const name of this.#labelNames) copy[name] = labels[name];
    return copy;
  }

  reset(): void {
    this.cells.clear();
    this.#byValue = new Map();
  }

  protected exposed(type: ExposedMetric['type'], values: ExposedValue[]): Promise<ExposedMetric> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type,
      values,
      aggregator: this.aggregator,
    });
  }
}

function checkValue(metric: string, value: number): void {
  if (!Number.isFinite(value)) throw new TypeError(`${metric}: value is not a finite number`);
}

export class KeyedCounter<L extends string> extends KeyedMetric<
  L,
  { labels: Labels<L>; value: number }
> {
  readonly type = 'counter' as const;

  protected newCell(labels: Labels<L>) {
    return { labels, value: 0 };
  }

  inc(labels: Labels<L>, value = 1): void {
    this.#check(value);
    this.cell(labels).value += value;
  }

  /** `inc` into a label set made by a metric with the same label names in the same order. */
  incIn(set: LabelSet<L>, value = 1): void {
    this.#check(value);
    this.cellIn(set).value += value;
  }

  #check(value: number): void {
    checkValue(this.name, value);
    if (value < 0) throw new Error(`${this.name}: a counter cannot be decreased`);
  }

  get(): Promise<ExposedMetric> {
    const values: ExposedValue[] = [];
    for (const cell of this.cells.values()) values.push({ labels: cell.labels, value: cell.value });
    return this.exposed(this.type, values);
  }
}

interface HistogramCell<L extends string> {
  labels: Labels<L>;
  /** Observations per bucket (not cumulative), one per upper bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class KeyedHistogram<L extends string> extends KeyedMetric<L, HistogramCell<L>> {
  readonly type = 'histogram' as const;
  readonly #upperBounds: readonly number[];

  constructor(options: KeyedMetricOptions<L> & { buckets: readonly number[] }) {
    super(options);
    this.#upperBounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected newCell(labels: Labels<L>): HistogramCell<L> {
    return { labels, counts: new Float64Array(this.#upperBounds.length), sum: 0, count: 0 };
  }

  observe(labels: Labels<L>, value: number): void {
    checkValue(this.name, value);
    this.#record(this.cell(labels), value);
  }

  /** `observe` into a label set made by a metric with the same label names in the same order. */
  observeIn(set: LabelSet<L>, value: number): void {
    checkValue(this.name, value);
    this.#record(this.cellIn(set), value);
  }

  #record(cell: HistogramCell<L>, value: number): void {
    cell.sum += value;
    cell.count += 1;
    const bounds = this.#upperBounds;
    for (let index = 0; index < bounds.length; index++) {
      if (value <= (bounds[index] as number)) {
        (cell.counts[index] as number) += 1;
        return;
      }
    }
  }

  get(): Promise<ExposedMetric> {
    const values: ExposedValue[] = [];
    for (const cell of this.cells.values()) {
      let cumulative = 0;
      this.#upperBounds.forEach((bound, index) => {
        cumulative += cell.counts[index] as number;
        values.push({
          labels: { le: bound, ...cell.labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
          exemplar: null,
        });
      });
      values.push({
        labels: { le: '+Inf', ...cell.labels },
        value: cell.count,
        metricName: `${this.name}_bucket`,
        exemplar: null,
      });
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return this.exposed(this.type, values);
  }
}
