/**
 * A flag declared once: name, value type, default, --help text, its own check and the README's line,
 * in a table keyed by the options field that holds its value. A binary's options struct holds
 * `flagValues(table)`, adds the table to its flag set (FlagSet.table) and runs `checkFlags` before
 * the checks that join several flags; the README's flag tables are generated from the same tables.
 */
import type { FlagOptions } from './flag-set.js';
import type { ValueType } from './values.js';

export interface FlagSpec<T> extends FlagOptions {
  /** The flag's name, without the dashes. */
  name: string;
  type: ValueType<T>;
  /** The value before parsing (lists and maps are copied for each options struct). */
  readonly default: T;
  /** The --help text. */
  usage: string;
  /** Checks the parsed value (`name` is the flag's); throws OptionsError. */
  check?(value: T, name: string): void;
}

export type FlagTable = Record<string, FlagSpec<unknown>>;

/** The values of a table's flags, by field. */
export type FlagValues<T extends FlagTable> = { -readonly [K in keyof T]: T[K] extends { type: ValueType<infer V> } ? V : never };

/** A fresh set of the table's defaults. */
export function flagValues<T extends FlagTable>(table: T): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) values[key] = copy(spec.default);
  return values as FlagValues<T>;
}

/** Runs each flag's own check, in the table's order. */
export function checkFlags<T extends FlagTable>(table: T, values: FlagValues<T>): void {
  const v = values as Record<string, unknown>;
  for (const [key, spec] of Object.entries(table)) spec.check?.(v[key], spec.name);
}

/** One flag of a table, its value type inferred from `type`. */
export function flag<T>(spec: FlagSpec<T>): FlagSpec<T> {
  return spec;
}

function copy<T>(value: T): T {
  if (Array.isArray(value)) return [...value] as T;
  if (value instanceof Map) return new Map(value) as T;
  return value;
}
