import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FlagSet } from '../../../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../../../apiserver/component-base/flag/options-error.js';
import { scalarValue } from '../../../../apiserver/component-base/flag/values.js';

/** A struct with one field of each kind, its flags and a parse helper. */
function newFlags() {
  const o = { name: 'x', list: ['a'], on: false, count: 3, wait: 1500, addr: '0.0.0.0', level: 'low' };
  const fs = new FlagSet('demo');
  fs.string(o, 'name', 'name', 'a name');
  fs.strings(o, 'list', 'list', 'a list');
  fs.bool(o, 'on', 'on', 'a switch', { shorthand: 'o' });
  fs.int(o, 'count', 'count', 'a count', { shorthand: 'c' });
  fs.duration(o, 'wait', 'wait', 'a wait');
  fs.ip(o, 'addr', 'addr', 'an address');
  const levels = ['low', 'high'];
  const level = scalarValue(
    'level',
    (raw) => {
      if (!levels.includes(raw)) throw new Error(`must be one of ${levels.join(', ')}`);
      return raw;
    },
    (v) => v,
    () => false,
  );
  fs.var(level, o, 'level', 'level', 'a custom value');
  const parse = (...argv: string[]) => {
    fs.parse(argv);
    return o;
  };
  return { o, fs, parse };
}

function fails(argv: string[], message: string): void {
  const { fs } = newFlags();
  assert.throws(() => fs.parse(argv), new OptionsError(message), argv.join(' '));
}

describe('FlagSet', () => {
  it('keeps the fields as defaults when nothing is given', () => {
    const { o, parse } = newFlags();
    assert.deepEqual(parse(), { ...o });
    assert.deepEqual(parse(), { name: 'x', list: ['a'], on: false, count: 3, wait: 1500, addr: '0.0.0.0', level: 'low' });
  });

  it('reads --flag=value, --flag value, bare booleans and shorthands', () => {
    const { parse } = newFlags();
    assert.deepEqual(parse('--name=n', '--list', 'b,c', '--on', '-c', '7', '--wait=1m', '--addr', '::1', '--level=high'), {
      name: 'n',
      list: ['b', 'c'],
      on: true,
      count: 7,
      wait: 60_000,
      addr: '::1',
      level: 'high',
    });
    assert.equal(newFlags().parse('-c9').count, 9);
    assert.equal(newFlags().parse('-c=10').count, 10);
    assert.equal(newFlags().parse('-o').on, true);
    assert.equal(newFlags().parse('--on=false').on, false);
    assert.throws(
      () => newFlags().parse('--on', 'false'),
      /does not take any arguments, got \["false"\]/,
      'a boolean never takes the next argument',
    );
  });

  it('accumulates lists (the first occurrence replaces the default); the last scalar wins', () => {
    const o = newFlags().parse('--list=b', '--list', 'c, d', '--list=', '--count=1', '--count=2');
    assert.deepEqual(o.list, ['b', 'c', 'd']);
    assert.equal(o.count, 2);
    assert.deepEqual(newFlags().parse('--list=').list, []);
  });

  it('marks what the command line changed', () => {
    const { fs, parse } = newFlags();
    parse('--count=3');
    assert.equal(fs.long('count')?.changed, true);
    assert.equal(fs.long('name')?.changed, false);
    assert.equal(fs.short('c')?.name, 'count');
  });

  it('reads float32 values and refuses what strconv.ParseFloat refuses', () => {
    const o = { rate: 0.1 };
    const fs = new FlagSet('demo');
    fs.float32(o, 'rate', 'rate', 'a rate');
    assert.match(fs.usages(), /--rate float32 +a rate \(default 0\.1\)/);
    fs.parse(['--rate=0.01']);
    assert.equal(o.rate, 0.01);
    fs.parse(['--rate', '2e-1']);
    assert.equal(o.rate, 0.2);
    for (const bad of ['fast', 'Inf', '']) {
      assert.throws(
        () => fs.parse([`--rate=${bad}`]),
        new OptionsError(
          `invalid argument ${JSON.stringify(bad)} for "--rate" flag: strconv.ParseFloat: parsing ${JSON.stringify(bad)}: invalid syntax`,
        ),
      );
    }
  });

  it('fails with pflag one-line errors', () => {
    fails(['--nope'], 'unknown flag: --nope');
    fails(['-kubeconfig=x'], "unknown shorthand flag: 'k' in -kubeconfig=x");
    fails(['--name'], 'flag needs an argument: --name');
    fails(['-c'], 'flag needs an argument: -c');
    fails(['serve', '--on', '--', '-x'], '"demo" does not take any arguments, got ["serve","-x"]');
    fails(['--on=maybe'], 'invalid argument "maybe" for "--on" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
    fails(['-c', 'two'], 'invalid argument "two" for "--count" flag: strconv.ParseInt: parsing "two": invalid syntax');
    fails(
      ['--count=9007199254740993'],
      'invalid argument "9007199254740993" for "--count" flag: strconv.ParseInt: parsing "9007199254740993": invalid syntax',
    );
    fails(['--wait=5'], 'invalid argument "5" for "--wait" flag: time: missing unit in duration "5"');
    fails(['--addr=localhost'], 'invalid argument "localhost" for "--addr" flag: failed to parse IP: "localhost"');
    fails(['--level=mid'], 'invalid argument "mid" for "--level" flag: must be one of low, high');
  });

  it('refuses a flag or shorthand defined twice', () => {
    const { fs, o } = newFlags();
    assert.throws(() => fs.string(o, 'name', 'name', 'again'), /flag --name is defined twice/);
    assert.throws(() => fs.int(o, 'count', 'other', 'again', { shorthand: 'c' }), /shorthand -c is defined twice/);
  });

  it('prints usages from the table, leaving out zero defaults', () => {
    const o = { empty: '', none: [] as string[], off: false, zero: 0, never: 0 };
    const fs = new FlagSet('demo');
    fs.string(o, 'empty', 'empty', 'no default shown');
    fs.strings(o, 'none', 'none', 'no default shown');
    fs.bool(o, 'off', 'off', 'no default shown');
    fs.int(o, 'zero', 'zero', 'no default shown');
    fs.duration(o, 'never', 'never', 'no default shown');
    assert.equal(
      fs.usages(),
      [
        '      --empty string     no default shown',
        '      --none strings     no default shown',
        '      --off              no default shown',
        '      --zero int         no default shown',
        '      --never duration   no default shown',
        '',
      ].join('\n'),
    );
    assert.equal(
      newFlags().fs.usages(),
      [
        '      --name string     a name (default "x")',
        '      --list strings    a list (default [a])',
        '  -o, --on              a switch',
        '  -c, --count int       a count (default 3)',
        '      --wait duration   a wait (default 1.5s)',
        '      --addr ip         an address (default 0.0.0.0)',
        '      --level level     a custom value (default low)',
        '',
      ].join('\n'),
    );
  });
});
