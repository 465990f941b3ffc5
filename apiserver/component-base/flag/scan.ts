/**
 * pflag's command-line syntax: `--name=value`, `--name value`, `-s value`, `-svalue`, `-s=value`,
 * booleans without a value, `--` ending the flags; anything else is a positional argument.
 */
import { OptionsError } from './options-error.js';

/** What scanning needs to know of a flag. */
export interface ScannedFlag {
  name: string;
  shorthand?: string;
  /** Takes no argument when given bare. */
  isBool: boolean;
}

/** Finds a flag by its long name or by its one-letter shorthand. */
export interface FlagLookup<F extends ScannedFlag> {
  long(name: string): F | undefined;
  short(letter: string): F | undefined;
}

export interface ScannedArgs<F extends ScannedFlag> {
  /** Flag occurrences in command-line order. */
  flags: { flag: F; value: string }[];
  args: string[];
}

/** Splits argv into flag occurrences and positional arguments; throws OptionsError for an unknown flag or a missing argument. */
export function scanArgs<F extends ScannedFlag>(argv: string[], lookup: FlagLookup<F>): ScannedArgs<F> {
  const out: ScannedArgs<F> = { flags: [], args: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.args.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.args.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    let value: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
    let flag: F | undefined;
    if (long) {
      flag = lookup.long(name);
      if (!flag) throw new OptionsError(`unknown flag: --${name}`);
    } else {
      flag = lookup.short(name[0]);
      if (!flag) throw new OptionsError(`unknown shorthand flag: '${name[0]}' in ${arg}`);
      if (value === undefined && name.length > 1) value = name.slice(1); // -v4
    }
    if (value === undefined) {
      if (flag.isBool) value = 'true';
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new OptionsError(`flag needs an argument: ${long ? `--${flag.name}` : `-${flag.shorthand}`}`);
    }
    out.flags.push({ flag, value });
  }
  return out;
}
