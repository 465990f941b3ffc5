/**
 * Label and field selectors for the fuzz suite: from the grammar (every operator, set forms,
 * prefixed keys, the fields each kind selects on) and beside it (empty terms, unbalanced
 * parentheses, keys and values too long or of odd characters, thousands of terms).
 */
import { type Random, plainString, randomString } from './random.js';

function labelKey(r: Random): string {
  return r.weighted([
    [5, r.pick(['app', 'tier', 'example.com/owner', 'env', 'a'])],
    [2, plainString(r)],
    [1, `${plainString(r)}.example.com/${plainString(r)}`],
    [1, randomString(r, 12)],
    [1, 'x'.repeat(r.pick([63, 64, 253, 254, 10_000]))],
    [1, r.pick(['/', 'a/', '/b', 'a/b/c', '-a', 'a-', '_', '.', 'A'])],
  ]);
}

function labelValue(r: Random): string {
  return r.weighted([
    [5, r.pick(['fuzz', 'web', 'db', 'lane', ''])],
    [2, plainString(r)],
    [1, randomString(r, 12)],
    [1, 'v'.repeat(r.pick([63, 64, 5000]))],
  ]);
}

function labelTerm(r: Random): string {
  const k = labelKey(r);
  switch (r.int(0, 9)) {
    case 0:
      return k;
    case 1:
      return `!${k}`;
    case 2:
      return `${k}=${labelValue(r)}`;
    case 3:
      return `${k}==${labelValue(r)}`;
    case 4:
      return `${k}!=${labelValue(r)}`;
    case 5:
      return `${k} in (${Array.from({ length: r.int(0, 4) }, () => labelValue(r)).join(',')})`;
    case 6:
      return `${k} notin (${Array.from({ length: r.int(0, 4) }, () => labelValue(r)).join(', ')})`;
    case 7:
      return `${k}${r.pick(['>', '<', 'gt', 'lt'])}${r.int(-5, 5)}`;
    case 8:
      return r.pick(['', ',', '(', ')', 'in', 'notin (', 'a in (b', 'a in b)', '!', '!!a', '=', '==', 'a=b=c', 'a in ((b))', ' ', 'a,,b']);
    default:
      return randomString(r, 20);
  }
}

export function labelSelector(r: Random): string {
  const n = r.weighted([
    [8, r.int(1, 3)],
    [1, r.int(4, 30)],
    [1, r.int(500, 3000)],
  ]);
  return Array.from({ length: n }, () => labelTerm(r)).join(r.chance(0.9) ? ',' : r.pick([' , ', ';', '&&', ' ']));
}

const FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'status.phase',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'status.podIP',
  'status.nominatedNodeName',
  'type',
  'metadata.uid',
  'metadata.labels',
  'metadata.labels.app',
  'spec',
  'spec.replicas',
  'involvedObject.name',
  'status.successful',
];

export function fieldSelector(r: Random): string {
  const term = () => {
    const f = r.weighted([
      [6, r.pick(FIELDS)],
      [1, randomString(r, 12)],
      [1, `${plainString(r)}.${plainString(r)}`],
    ]);
    const op = r.pick(['=', '==', '!=', ' = ', '=~', ' in ', '']);
    return `${f}${op}${r.weighted([
      [4, r.pick(['f0-cm-0', 'fuzz-0', 'Running', 'Pending', '', 'node-1', 'Opaque'])],
      [1, randomString(r, 16)],
      [1, `a\\,b\\=c${r.pick(['\\', '\\\\', '\\x'])}`],
    ])}`;
  };
  const n = r.weighted([
    [8, r.int(1, 3)],
    [1, r.int(100, 2000)],
  ]);
  return Array.from({ length: n }, term).join(',');
}
