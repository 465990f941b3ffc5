/** The logging flags every binary has: -v/--v, klog's verbosity, mapped to a winston level. */
import type { FlagSet } from '../flag/flag-set.js';
import { OptionsError } from '../flag/options-error.js';

export class LogOptions {
  verbosity = 0;

  addFlags(fs: FlagSet): void {
    fs.int(this, 'verbosity', 'v', 'number for the log level verbosity (0..10)', { shorthand: 'v' });
  }

  validate(): void {
    if (this.verbosity < 0 || this.verbosity > 10) throw new OptionsError(`--v ${this.verbosity} must be between 0 and 10, inclusive`);
  }

  /** The winston level: 0-1 info, 2-3 verbose, 4-5 debug, 6+ silly. */
  level(): string {
    if (this.verbosity >= 6) return 'silly';
    if (this.verbosity >= 4) return 'debug';
    if (this.verbosity >= 2) return 'verbose';
    return 'info';
  }
}
