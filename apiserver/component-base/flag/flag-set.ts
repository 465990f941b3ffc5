/**
 * A set of typed flags (pflag's FlagSet). Each flag is bound to a field of an options struct: its
 * default is the field's value when the flag is added, parsing writes the field, and --help is
 * generated from the table.
 */
import { OptionsError } from './options-error.js';
import { scanArgs, type FlagLookup, type ScannedFlag } from './scan.js';
import type { FlagTable, FlagValues } from './flag-table.js';
import { boolValue, durationValue, float32Value, intValue, ipValue, stringsValue, stringValue, type ValueType } from './values.js';
import { messageOf } from '../../api/thrown.js';

/** One flag of a set. */
export interface Flag<T = unknown> extends ScannedFlag {
  usage: string;
  type: ValueType<T>;
  /** The value before parsing, shown by --help. */
  defValue: T;
  /** Whether the command line set it. */
  changed: boolean;
  /** The README's line and default (FlagOptions). */
  doc?: string;
  defaultDoc?: string;
  get(): T;
  set(value: T): void;
}

export interface FlagOptions {
  /** A one-letter form, as `-v`. */
  shorthand?: string;
  /** The README's line for the flag (its flag table is generated: scripts/generate-flags.ts). */
  doc?: string;
  /** The README's default column where the value alone does not say it ("<data-dir>/certs", "the number of CPUs"). */
  defaultDoc?: string;
}

export class FlagSet implements FlagLookup<Flag> {
  private readonly flags: Flag[] = [];

  /** `command` names the binary in errors about positional arguments. */
  constructor(readonly command: string) {}

  /** Adds a flag of any value type bound to `target[key]`. */
  var<K extends string, T>(type: ValueType<T>, target: Record<K, T>, key: K, name: string, usage: string, opts: FlagOptions = {}): void {
    if (this.long(name)) throw new Error(`flag --${name} is defined twice`);
    if (opts.shorthand !== undefined && this.short(opts.shorthand)) throw new Error(`shorthand -${opts.shorthand} is defined twice`);
    this.flags.push({
      name,
      shorthand: opts.shorthand,
      usage,
      doc: opts.doc,
      defaultDoc: opts.defaultDoc,
      type: type as ValueType<unknown>,
      isBool: type.isBool === true,
      defValue: target[key],
      changed: false,
      get: () => target[key],
      set: (value) => {
        target[key] = value as T;
      },
    });
  }

  string<K extends string>(target: Record<K, string>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(stringValue, target, key, name, usage, opts);
  }

  /** A comma list that accumulates when repeated. */
  strings<K extends string>(target: Record<K, string[]>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(stringsValue, target, key, name, usage, opts);
  }

  bool<K extends string>(target: Record<K, boolean>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(boolValue, target, key, name, usage, opts);
  }

  int<K extends string>(target: Record<K, number>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(intValue, target, key, name, usage, opts);
  }

  float32<K extends string>(target: Record<K, number>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(float32Value, target, key, name, usage, opts);
  }

  /** A Go duration, held in milliseconds. */
  duration<K extends string>(target: Record<K, number>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(durationValue, target, key, name, usage, opts);
  }

  ip<K extends string>(target: Record<K, string>, key: K, name: string, usage: string, opts?: FlagOptions): void {
    this.var(ipValue, target, key, name, usage, opts);
  }

  /** Adds every flag of a table, in its order, bound to the table's values (flagValues()). */
  table<T extends FlagTable>(table: T, values: FlagValues<T>): void {
    const target = values as Record<string, unknown>;
    for (const [key, spec] of Object.entries(table)) {
      this.var(spec.type, target, key, spec.name, spec.usage, spec);
    }
  }

  long(name: string): Flag | undefined {
    return this.flags.find((f) => f.name === name);
  }

  short(letter: string): Flag | undefined {
    return this.flags.find((f) => f.shorthand === letter);
  }

  /** Every flag, in the order added. */
  all(): readonly Flag[] {
    return this.flags;
  }

  /** Sets the flags from argv (without node and the script); throws OptionsError with pflag's wording. */
  parse(argv: string[]): void {
    const { flags, args } = scanArgs(argv, this);
    if (args.length > 0) throw new OptionsError(`"${this.command}" does not take any arguments, got ${JSON.stringify(args)}`);
    for (const { flag, value } of flags) {
      try {
        flag.set(flag.type.set(value, flag.get(), flag.changed));
      } catch (err) {
        throw new OptionsError(`invalid argument ${JSON.stringify(value)} for "--${flag.name}" flag: ${messageOf(err)}`);
      }
      flag.changed = true;
    }
  }

  /** The flag lines of --help, as pflag's FlagUsages prints them. */
  usages(): string {
    const heads = this.flags.map((f) => {
      const head = f.shorthand ? `  -${f.shorthand}, --${f.name}` : `      --${f.name}`;
      return f.type.type === '' ? head : `${head} ${f.type.type}`;
    });
    const width = Math.max(...heads.map((h) => h.length)) + 3;
    return this.flags
      .map((f, i) => {
        const def = f.type.isZero(f.defValue) ? '' : ` (default ${f.type.format(f.defValue)})`;
        return `${heads[i].padEnd(width)}${f.usage}${def}\n`;
      })
      .join('');
  }
}
