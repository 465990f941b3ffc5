/** Checks of parsed flag values that more than one binary makes, with one wording. */
import { OptionsError } from './options-error.js';

/** A listening port: 0 (pick a free one) to 65535. */
export function checkPort(name: string, port: number): void {
  if (port < 0 || port > 65535) throw new OptionsError(`--${name} ${port} must be between 0 and 65535, inclusive. 0 picks a free port`);
}
