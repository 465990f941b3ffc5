/**
 * A binary's command line (cobra's Command over component-base options): an options struct adds
 * its flags, --help/-h is generated from them, and a parsed command line is validated, then
 * completed into what the binary runs with.
 */
import { FlagSet } from '../flag/flag-set.js';
import { OptionsError } from '../flag/options-error.js';

/** A binary's options struct: its fields are its flags' values. */
export interface ComponentOptions<Completed> {
  addFlags(fs: FlagSet): void;
  /** Checks the parsed values; throws OptionsError with a one-line reason. */
  validate(): void;
  /** What the binary runs with, derived from validated values. */
  complete(): Completed;
}

export interface CommandSpec<Completed> {
  /** The binary's name, as --help and errors show it. */
  name: string;
  /** What --help says before "Usage:", without a final newline. */
  about: string;
  /** A fresh options struct holding the defaults. */
  newOptions(): ComponentOptions<Completed>;
}

export type ParsedCommandLine<Completed> = { help: true } | { help: false; options: Completed };

export class Command<Completed> {
  constructor(private readonly spec: CommandSpec<Completed>) {}

  get name(): string {
    return this.spec.name;
  }

  /** The flag table: fresh options' flags, then --help. */
  flagSet(): { fs: FlagSet; options: ComponentOptions<Completed>; help: () => boolean } {
    const fs = new FlagSet(this.spec.name);
    const options = this.spec.newOptions();
    options.addFlags(fs);
    const state = { help: false };
    fs.bool(state, 'help', 'help', `help for ${this.spec.name}`, { shorthand: 'h' });
    return { fs, options, help: () => state.help };
  }

  /** The --help text. */
  usage(): string {
    return `${this.spec.about}\n\nUsage:\n  ${this.spec.name} [flags]\n\nFlags:\n${this.flagSet().fs.usages()}`;
  }

  /** Parses argv (without node and the script); throws OptionsError. --help skips validation. */
  parse(argv: string[]): ParsedCommandLine<Completed> {
    const { fs, options, help } = this.flagSet();
    fs.parse(argv);
    if (help()) return { help: true };
    options.validate();
    return { help: false, options: options.complete() };
  }

  /** The completed options of argv, --help or not; throws OptionsError. */
  options(argv: string[]): Completed {
    const { fs, options } = this.flagSet();
    fs.parse(argv);
    options.validate();
    return options.complete();
  }

  /**
   * The entry of a binary: the completed options of argv, after printing --help and exiting 0, or
   * printing `<name>: <reason>` on one line and exiting 2 for a bad command line.
   */
  execute(argv: string[] = process.argv.slice(2)): Completed {
    let parsed: ParsedCommandLine<Completed>;
    try {
      parsed = this.parse(argv);
    } catch (err) {
      if (!(err instanceof OptionsError)) throw err;
      process.stderr.write(`${this.spec.name}: ${err.message}\n`);
      process.exit(2);
    }
    if (parsed.help) {
      process.stdout.write(this.usage());
      process.exit(0);
    }
    return parsed.options;
  }
}
