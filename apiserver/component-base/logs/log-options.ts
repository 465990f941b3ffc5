/** The logging flags every binary has: -v/--v, klog's verbosity, mapped to a winston level. */
import type { FlagSet } from '../flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../flag/flag-table.js';
import { OptionsError } from '../flag/options-error.js';
import { intValue } from '../flag/values.js';

export const LOG_FLAGS = {
  verbosity: flag({
    name: 'v',
    shorthand: 'v',
    type: intValue,
    default: 0,
    usage: 'number for the log level verbosity (0..10)',
    doc: 'Log verbosity 0–10 (JSON lines on stderr)',
    check: (v) => {
      if (v < 0 || v > 10) throw new OptionsError(`--v ${v} must be between 0 and 10, inclusive`);
    },
  }),
};

export class LogOptions {
  readonly values = flagValues(LOG_FLAGS);

  addFlags(fs: FlagSet): void {
    fs.table(LOG_FLAGS, this.values);
  }

  validate(): void {
    checkFlags(LOG_FLAGS, this.values);
  }

  /** The winston level: 0-1 info, 2-3 verbose, 4-5 debug, 6+ silly. */
  level(): string {
    const { verbosity } = this.values;
    if (verbosity >= 6) return 'silly';
    if (verbosity >= 4) return 'debug';
    if (verbosity >= 2) return 'verbose';
    return 'info';
  }
}
