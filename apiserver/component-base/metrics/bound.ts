/**
 * Metrics for the hot paths: each set of label values is bound once to a child that counts into
 * plain numbers. prom-client's own children validate and hash their labels on every call (about a
 * microsecond each, and a request makes a dozen such calls); these do neither. They join a
 * prom-client registry as its own metrics do and are exposed in the same shape: the text exposition,
 * and the JSON the workers' aggregation sums.
 */
import type client from 'prom-client';

type Labels = Record<string, string>;

export interface CounterChild {
  inc(by?: number): void;
}

export interface GaugeChild {
  inc(by?: number): void;
  set(value: number): void;
}

export interface HistogramChild {
  observe(value: number): void;
}

export interface BoundMetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: client.Registry[];
}

/** What the registry reads of a metric: its name, help, type and values; the aggregation also its aggregator. */
interface Exposed {
  labels: Labels;
  value: number;
  metricName?: string;
  sharedLabels?: Labels;
}

abstract class BoundMetric<L extends string, C> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'gauge' | 'histogram';
  private readonly labelNames: readonly L[];
  private children = new Map<string, { labels: Labels; child: C }>();

  constructor(opts: BoundMetricOptions<L>) {
    this.name = opts.name;
    this.help = opts.help;
    this.labelNames = opts.labelNames;
    for (const r of opts.registers) r.registerMetric(this as unknown as client.Metric);
  }

  /**
   * The child of these label values, made on first use. Hold on to it where the values repeat:
   * finding it again builds a key of every value.
   */
  labels(values: Record<L, string>): C {
    let key = '';
    for (const n of this.labelNames) {
      const v = values[n] ?? '';
      key += `${v.length}:${v}`;
    }
    let entry = this.children.get(key);
    if (!entry) {
      const labels: Labels = {};
      for (const n of this.labelNames) labels[n] = values[n] ?? '';
      entry = { labels, child: this.newChild() };
      this.children.set(key, entry);
    }
    return entry.child;
  }

  reset(): void {
    this.children = new Map();
  }

  protected abstract newChild(): C;
  /** A child's series; none until it was first counted, observed or set, as prom-client's children. */
  protected abstract exposed(labels: Labels, child: C): Exposed[];

  /** The text exposition's form: a histogram's buckets carry their labels as shared labels, after `le`. */
  async getForPromString() {
    const values: Exposed[] = [];
    for (const { labels, child } of this.children.values()) values.push(...this.exposed(labels, child));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (the workers' aggregation): every label in `labels`. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, ...v }) => (sharedLabels ? { ...v, labels: { ...v.labels, ...sharedLabels } } : v)),
    };
  }
}

class CountChild implements CounterChild, GaugeChild {
  value = 0;
  used = false;
  inc(by = 1): void {
    this.value += by;
    this.used = true;
  }
  set(value: number): void {
    this.value = value;
    this.used = true;
  }
}

/** Counters and gauges alike: a child holds one number (its users see it as C: a counter's cannot set). */
abstract class CountMetric<L extends string, C> extends BoundMetric<L, C> {
  protected newChild(): C {
    return new CountChild() as unknown as C;
  }
  protected exposed(labels: Labels, child: C): Exposed[] {
    const c = child as unknown as CountChild;
    return c.used ? [{ labels, value: c.value }] : [];
  }
}

export class BoundCounter<L extends string> extends CountMetric<L, CounterChild> {
  readonly type = 'counter';
}

export class BoundGauge<L extends string> extends CountMetric<L, GaugeChild> {
  readonly type = 'gauge';
}

class BucketChild implements HistogramChild {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    this.sum += value;
    this.count++;
    const b = this.bounds;
    for (let i = 0; i < b.length; i++)
      if (value <= b[i]) {
        this.counts[i]++;
        return;
      }
  }
}

export class BoundHistogram<L extends string> extends BoundMetric<L, HistogramChild> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(opts: BoundMetricOptions<L> & { buckets: readonly number[] }) {
    super(opts);
    this.bounds = [...opts.buckets].sort((a, b) => a - b);
  }

  protected newChild(): HistogramChild {
    return new BucketChild(this.bounds);
  }

  protected exposed(labels: Labels, child: HistogramChild): Exposed[] {
    const c = child as BucketChild;
    if (c.count === 0) return [];
    const bucket = `${this.name}_bucket`;
    const out: Exposed[] = [];
    let acc = 0;
    this.bounds.forEach((le, i) => {
      acc += c.counts[i];
      out.push({ labels: { le: le as unknown as string }, value: acc, metricName: bucket, sharedLabels: labels });
    });
    out.push({ labels: { le: '+Inf' }, value: c.count, metricName: bucket, sharedLabels: labels });
    out.push({ labels: {}, value: c.sum, metricName: `${this.name}_sum`, sharedLabels: labels });
    out.push({ labels: {}, value: c.count, metricName: `${this.name}_count`, sharedLabels: labels });
    return out;
  }
}
