import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command, type ComponentOptions } from '../../../../apiserver/component-base/cli/command.js';
import type { FlagSet } from '../../../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../../../apiserver/component-base/flag/options-error.js';
import { LogOptions } from '../../../../apiserver/component-base/logs/log-options.js';

class DemoOptions implements ComponentOptions<{ port: number; level: string }> {
  port = 80;
  readonly logs = new LogOptions();
  addFlags(fs: FlagSet): void {
    fs.int(this, 'port', 'port', 'The port.');
    this.logs.addFlags(fs);
  }
  validate(): void {
    if (this.port === 0) throw new OptionsError('--port must not be 0');
    this.logs.validate();
  }
  complete() {
    return { port: this.port, level: this.logs.level() };
  }
}

const demo = new Command({ name: 'demo', about: 'Demo runs a demo.', newOptions: () => new DemoOptions() });

describe('Command', () => {
  it('parses, validates and completes', () => {
    assert.deepEqual(demo.parse(['--port=8080', '-v', '4']), { help: false, options: { port: 8080, level: 'debug' } });
    assert.deepEqual(demo.options(['--v=2']), { port: 80, level: 'verbose' });
    assert.throws(() => demo.parse(['--port=0']), new OptionsError('--port must not be 0'));
    assert.throws(() => demo.parse(['--v=11']), new OptionsError('--v 11 must be between 0 and 10, inclusive'));
  });

  it('--help and -h skip validation but not unknown flags or bad values', () => {
    assert.deepEqual(demo.parse(['--port=0', '--help']), { help: true });
    assert.deepEqual(demo.parse(['-h']), { help: true });
    assert.deepEqual(demo.parse(['--help=false']), { help: false, options: { port: 80, level: 'info' } });
    assert.throws(() => demo.parse(['--nope', '--help']), new OptionsError('unknown flag: --nope'));
    assert.throws(() => demo.parse(['--port=x', '-h']), OptionsError);
  });

  it('generates --help from the flag table', () => {
    assert.equal(
      demo.usage(),
      [
        'Demo runs a demo.',
        '',
        'Usage:',
        '  demo [flags]',
        '',
        'Flags:',
        '      --port int   The port. (default 80)',
        '  -v, --v int      number for the log level verbosity (0..10)',
        '  -h, --help       help for demo',
        '',
      ].join('\n'),
    );
  });

  it('gives fresh options to every parse', () => {
    demo.parse(['--port=1']);
    assert.deepEqual(demo.options([]), { port: 80, level: 'info' });
  });
});
