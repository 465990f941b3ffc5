import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkFlags, flag, flagValues } from '../../../../apiserver/component-base/flag/flag-table.js';
import { FlagSet } from '../../../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../../../apiserver/component-base/flag/options-error.js';
import { intValue, stringsValue, stringValue } from '../../../../apiserver/component-base/flag/values.js';

const checked: string[] = [];
const TABLE = {
  port: flag({
    name: 'port',
    type: intValue,
    default: 80,
    usage: 'The port.',
    doc: 'HTTP port',
    check: (value, name) => {
      checked.push(name);
      if (value < 1) throw new OptionsError(`--${name} must be positive`);
    },
  }),
  names: flag({ name: 'names', type: stringsValue, default: ['a'], usage: 'Names.', shorthand: 'n' }),
  mode: flag({
    name: 'mode',
    type: stringValue,
    default: 'fast',
    usage: 'The mode.',
    defaultDoc: 'fast, or slow on a laptop',
    check: (value, name) => {
      checked.push(name);
      if (value !== 'fast' && value !== 'slow') throw new OptionsError(`--${name} ${value} is not fast or slow`);
    },
  }),
};

describe('flag tables', () => {
  it('gives every options struct fresh defaults (lists copied)', () => {
    const a = flagValues(TABLE);
    const b = flagValues(TABLE);
    assert.deepEqual(a, { port: 80, names: ['a'], mode: 'fast' });
    a.names.push('b');
    assert.deepEqual(b.names, ['a']);
    assert.deepEqual(TABLE.names.default, ['a']);
  });

  it('adds the flags in the table order, bound to the values, with help, shorthand and README fields', () => {
    const values = flagValues(TABLE);
    const fs = new FlagSet('demo');
    fs.table(TABLE, values);
    assert.deepEqual(
      fs.all().map((f) => [f.name, f.shorthand, f.doc, f.defaultDoc]),
      [
        ['port', undefined, 'HTTP port', undefined],
        ['names', 'n', undefined, undefined],
        ['mode', undefined, undefined, 'fast, or slow on a laptop'],
      ],
    );
    fs.parse(['--port=8080', '-n', 'x,y', '--mode', 'slow']);
    assert.deepEqual(values, { port: 8080, names: ['x', 'y'], mode: 'slow' });
    assert.equal(
      fs.usages(),
      [
        '      --port int        The port. (default 80)',
        '  -n, --names strings   Names. (default [a])',
        '      --mode string     The mode. (default "fast")',
        '',
      ].join('\n'),
    );
  });

  it('runs each flag check with its flag name, in the table order, and stops at the first failure', () => {
    checked.length = 0;
    checkFlags(TABLE, flagValues(TABLE));
    assert.deepEqual(checked, ['port', 'mode']);
    checked.length = 0;
    assert.throws(() => checkFlags(TABLE, { port: 0, names: [], mode: 'odd' }), new OptionsError('--port must be positive'));
    assert.deepEqual(checked, ['port']);
    assert.throws(() => checkFlags(TABLE, { port: 1, names: [], mode: 'odd' }), new OptionsError('--mode odd is not fast or slow'));
  });

  it('refuses a table that names a flag already added', () => {
    const fs = new FlagSet('demo');
    fs.table(TABLE, flagValues(TABLE));
    assert.throws(() => fs.table({ again: TABLE.port }, flagValues({ again: TABLE.port })), /flag --port is defined twice/);
  });
});
