import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flag, flagValues } from '../../../../apiserver/component-base/flag/flag-table.js';
import { FlagSet } from '../../../../apiserver/component-base/flag/flag-set.js';
import { flagsMarkdown } from '../../../../apiserver/component-base/flag/markdown.js';
import {
  boolValue,
  configurationMapValue,
  durationValue,
  intValue,
  stringsValue,
  stringValue,
} from '../../../../apiserver/component-base/flag/values.js';

test('a flag set becomes the README table: doc or help, defaults as the value or defaultDoc says', () => {
  const table = {
    verbosity: flag({ name: 'v', shorthand: 'v', type: intValue, default: 0, usage: 'verbosity', doc: 'Log verbosity' }),
    prefix: flag({ name: 'prefix', type: stringValue, default: '/registry', usage: 'The prefix.' }),
    file: flag({ name: 'file', type: stringValue, default: '', usage: 'A file | or a pipe.\nSecond line.' }),
    modes: flag({ name: 'modes', type: stringsValue, default: ['A', 'B'], usage: 'Modes.' }),
    none: flag({ name: 'none', type: stringsValue, default: [], usage: 'Nothing.' }),
    on: flag({ name: 'on', type: boolValue, default: false, usage: 'Switch.' }),
    wait: flag({ name: 'wait', type: durationValue, default: 0, usage: 'Wait.' }),
    ttl: flag({ name: 'ttl', type: durationValue, default: 90_000, usage: 'TTL.' }),
    config: flag({ name: 'config', type: configurationMapValue, default: new Map<string, string>(), usage: 'Pairs.', defaultDoc: '(all)' }),
  };
  const fs = new FlagSet('demo');
  fs.table(table, flagValues(table));
  assert.equal(
    flagsMarkdown(fs.all()),
    [
      '| Flag | Default | Meaning |',
      '| --- | --- | --- |',
      '| `-v`, `--v` | `0` | Log verbosity |',
      '| `--prefix` | `/registry` | The prefix. |',
      '| `--file` | (none) | A file \\| or a pipe. Second line. |',
      '| `--modes` | `A,B` | Modes. |',
      '| `--none` | (none) | Nothing. |',
      '| `--on` | `false` | Switch. |',
      '| `--wait` | `0s` | Wait. |',
      '| `--ttl` | `1m30s` | TTL. |',
      '| `--config` | (all) | Pairs. |',
      '',
    ].join('\n'),
  );
});
