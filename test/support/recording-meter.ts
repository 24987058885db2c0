/**
 * A `MetricMeter` that remembers every instrument made and every value recorded, for the metrics
 * unit tests: what the Temporal runtime's meter would have been handed.
 */
import type { MetricCounter, MetricGauge, MetricHistogram, MetricMeter, MetricTags, NumericMetricValueType } from '@temporalio/common';

/** One value recorded on an instrument. */
export interface RecordedValue {
  kind: 'counter' | 'histogram' | 'gauge';
  name: string;
  value: number;
  tags: MetricTags;
}

/** One instrument made. */
export interface MadeInstrument {
  kind: 'counter' | 'histogram' | 'gauge';
  name: string;
  unit?: string;
  valueType: NumericMetricValueType;
}

/** The recording meter and what it saw. */
export class RecordingMeter implements MetricMeter {
  readonly made: MadeInstrument[] = [];
  readonly values: RecordedValue[] = [];

  /** The values recorded on `name`. */
  of(name: string): RecordedValue[] {
    return this.values.filter((v) => v.name === name);
  }

  createCounter(name: string, unit?: string, description?: string): MetricCounter {
    this.made.push({ kind: 'counter', name, ...(unit !== undefined ? { unit } : {}), valueType: 'int' });
    const counter: MetricCounter = {
      name,
      kind: 'counter',
      valueType: 'int',
      ...(unit !== undefined ? { unit } : {}),
      ...(description !== undefined ? { description } : {}),
      add: (value, tags = {}) => void this.values.push({ kind: 'counter', name, value, tags }),
      withTags: () => counter,
    };
    return counter;
  }

  createHistogram(name: string, valueType: NumericMetricValueType = 'int', unit?: string, description?: string): MetricHistogram {
    this.made.push({ kind: 'histogram', name, ...(unit !== undefined ? { unit } : {}), valueType });
    const histogram: MetricHistogram = {
      name,
      kind: 'histogram',
      valueType,
      ...(unit !== undefined ? { unit } : {}),
      ...(description !== undefined ? { description } : {}),
      record: (value, tags = {}) => void this.values.push({ kind: 'histogram', name, value, tags }),
      withTags: () => histogram,
    };
    return histogram;
  }

  createGauge(name: string, valueType: NumericMetricValueType = 'int', unit?: string, description?: string): MetricGauge {
    this.made.push({ kind: 'gauge', name, ...(unit !== undefined ? { unit } : {}), valueType });
    const gauge: MetricGauge = {
      name,
      kind: 'gauge',
      valueType,
      ...(unit !== undefined ? { unit } : {}),
      ...(description !== undefined ? { description } : {}),
      set: (value, tags = {}) => void this.values.push({ kind: 'gauge', name, value, tags }),
      withTags: () => gauge,
    };
    return gauge;
  }

  withTags(): MetricMeter {
    return this;
  }
}
