/**
 * The fuzz suite's inputs, one generator per category. Each makes one request from a lane's seeded
 * Random and the kinds' templates alone (never from what the server answered), so a seed replays
 * the same inputs. Writes go to the lane's own namespace and names; the sentinel namespace is only
 * read, or written with dryRun=All, which must leave it as it was.
 */
import type { ProtobufCodec } from '../../apiserver/runtime/protobuf/codec.js';
import type { FuzzRequest } from './fuzz-client.js';
import { type FuzzKind, itemPath, KIND_NAMES, KINDS, type KindName, laneNames } from './kinds.js';
import { mutateBytes, mutateJsonText, mutateValue, nested, nodePaths, valueDepth } from './mutate.js';
import { mutateProtobuf, withLoneSurrogate } from './protobuf-bytes.js';
import { EDGE_NUMBER_TEXTS, ODD_CHARS, type Random, plainString, randomString, randomValue } from './random.js';
import { fieldSelector, labelSelector } from './selectors.js';
import { deepYamlBody, mutateYaml, yamlText } from './yaml-text.js';

export const CATEGORIES = [
  'json-body',
  'yaml-body',
  'protobuf-body',
  'json-patch',
  'merge-patch',
  'strategic-merge-patch',
  'apply-yaml',
  'apply-json',
  'selectors',
  'query',
  'headers',
  // The inputs of the known bugs (see the suite's header):
  'json-patch-copies',
  'deep-yaml',
  'protobuf-lone-surrogates',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const KNOWN_BUG_CATEGORIES: readonly Category[] = ['json-patch-copies', 'deep-yaml', 'protobuf-lone-surrogates'];

const WEIGHTS: Record<Category, number> = {
  'json-body': 12,
  'yaml-body': 8,
  'protobuf-body': 8,
  'json-patch': 10,
  'merge-patch': 8,
  'strategic-merge-patch': 8,
  'apply-yaml': 6,
  'apply-json': 4,
  selectors: 8,
  query: 12,
  headers: 10,
  'json-patch-copies': 1,
  'deep-yaml': 1,
  'protobuf-lone-surrogates': 2,
};

/** What the checker does after a 2xx answer. */
export interface Expect {
  /** The write's object: read it back (by the answer's name) and compare with the answer. */
  object?: { kind: FuzzKind; namespace: string };
  /** A delete of this item: it is gone or being deleted afterwards. */
  deleted?: string;
}

export interface Input {
  category: Category;
  req: FuzzRequest;
  expect: Expect;
}

export interface Lane {
  index: number;
  namespace: string;
  r: Random;
  codec: ProtobufCodec;
  /** The admin's token, for Authorization headers that hold it with something more. */
  token: string;
}

export const SENTINEL_NAMESPACE = 'sentinel';
/** The names of a kind each lane writes. */
export const NAMES_PER_KIND = 4;

export function pickCategory(r: Random, enabled: readonly Category[]): Category {
  return r.weighted(enabled.map((c) => [WEIGHTS[c], c] as const));
}

export function generate(lane: Lane, category: Category): Input {
  return GENERATORS[category](lane);
}

// ---- shared pieces ----

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Percent-encodes the text's UTF-8 (lone surrogates become U+FFFD), or now and then leaves it raw. */
function enc(r: Random, s: string): string {
  if (r.chance(0.03)) return s;
  return encodeURIComponent(s.replace(LONE_SURROGATE, '\ufffd'));
}

/** Percent sequences that decode to no valid UTF-8, or do not decode at all. */
const BAD_PERCENT = ['%ED%A0%80', '%FF', '%C0%80', '%', '%Z', '%zz', '%E2%82', '%00', '%2F', '%252F', '%u0041'];

/**
 * A query of `params`, now and then mangled (bad percent sequences, a key without its value, odd
 * separators). `dryRun` is never mangled and always stands on its own after an '&': it is what keeps a
 * write to a sentinel or a collection harmless, and `pretty=1;dryRun=All` is one parameter, `pretty`
 * (a deletecollection of every CRD, the sentinel's among them, was sent that way).
 */
function query(r: Random, params: [string, string][]): string {
  if (params.length === 0) return '';
  const mangled = params
    .filter(([k]) => k !== 'dryRun')
    .map(([k, v]) => (r.chance(0.04) ? `${k}=${r.pick(BAD_PERCENT)}` : r.chance(0.02) ? enc(r, k) : `${enc(r, k)}=${enc(r, v)}`))
    .join(r.chance(0.97) ? '&' : r.pick([';', '&&', '&=&']));
  const dry = params.filter(([k]) => k === 'dryRun').map(([k, v]) => `${k}=${enc(r, v)}`);
  return `?${[mangled, ...dry].filter((p) => p !== '').join('&')}`;
}

function kindFor(r: Random, only?: (k: FuzzKind) => boolean): FuzzKind {
  const names = KIND_NAMES.filter((n) => !only || only(KINDS[n]));
  return KINDS[r.weighted(names.map((n) => [n === 'crd' ? 1 : 4, n] as const)) as KindName];
}

function laneName(lane: Lane, kind: FuzzKind): string {
  return lane.r.pick(laneNames(kind, lane.index, NAMES_PER_KIND));
}

/** A target of a write: the lane's own object (mostly) or a sentinel written with dryRun=All. */
interface Target {
  kind: FuzzKind;
  namespace: string;
  name: string;
  path: string;
  sentinel: boolean;
}

function target(lane: Lane, kind: FuzzKind): Target {
  const sentinel = lane.r.chance(0.1);
  const namespace = sentinel ? SENTINEL_NAMESPACE : lane.namespace;
  const name = sentinel ? sentinelName(kind) : laneName(lane, kind);
  return { kind, namespace, name, path: itemPath(kind, namespace, name), sentinel };
}

export function sentinelName(kind: FuzzKind): string {
  return kind.name === 'crd' ? 'crontabs.stable.example.com' : `sentinel-${kind.short}`;
}

/** Write options: dryRun=All on a sentinel (exactly once), else now and then; fieldValidation and fieldManager at random. */
function writeParams(r: Random, t: Target, extra: [string, string][] = []): [string, string][] {
  const p: [string, string][] = [...extra];
  if (t.sentinel || r.chance(0.05)) p.push(['dryRun', 'All']);
  if (r.chance(0.3)) p.push(['fieldValidation', r.pick(['Strict', 'Warn', 'Ignore'])]);
  if (r.chance(0.1) && !t.sentinel) p.push(['fieldValidation', r.pick(['strict', '', 'All', randomString(r, 6)])]);
  if (r.chance(0.2) && !p.some(([k]) => k === 'fieldManager'))
    p.push(['fieldManager', r.chance(0.8) ? `fuzz-${plainString(r)}` : randomString(r, 140)]);
  if (r.chance(0.05)) p.push(['pretty', r.pick(['true', '1', 'x'])]);
  return p;
}

/** The object with a lane's identity, optionally mutated in structure. */
function body(lane: Lane, t: Target, mutate: number): Record<string, any> {
  const r = lane.r;
  const o = t.kind.template(t.name, t.namespace, r);
  return r.chance(mutate) ? (mutateValue(r, o) as Record<string, any>) : o;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'];

/** Create (POST to the collection) or replace (PUT the item, or its status). */
function writeRequest(lane: Lane, t: Target, payload: Buffer | string, contentType: string): Input {
  const r = lane.r;
  const create = r.chance(0.5);
  const sub = !create && t.kind.subresources.includes('status') && r.chance(0.15) ? '/status' : '';
  const path = create ? t.path.slice(0, t.path.lastIndexOf('/')) : `${t.path}${sub}`;
  const params = writeParams(r, t);
  const dry = params.some(([k, v]) => k === 'dryRun' && v === 'All');
  return {
    category: 'json-body',
    req: { method: create ? 'POST' : 'PUT', path: path + query(r, params), headers: { 'Content-Type': contentType }, body: payload },
    expect: dry || t.sentinel ? {} : { object: { kind: t.kind, namespace: t.namespace } },
  };
}

// ---- the generators ----

function jsonBody(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  const text = JSON.stringify(body(lane, t, 0.6));
  const payload = r.chance(0.35) ? mutateJsonText(r, text) : text;
  return { ...writeRequest(lane, t, payload, r.pick(JSON_TYPES)), category: 'json-body' };
}

function yamlBody(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  const text = yamlText(r, body(lane, t, 0.5));
  const payload = r.chance(0.4) ? mutateYaml(r, text) : text;
  return { ...writeRequest(lane, t, payload, r.pick(['application/yaml', 'application/yaml; charset=utf-8'])), category: 'yaml-body' };
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function encodeProtobuf(lane: Lane, obj: Record<string, any>): Buffer | undefined {
  try {
    return lane.codec.encode(obj);
  } catch {
    return undefined;
  }
}

function protobufBody(lane: Lane): Input {
  const r = lane.r;
  const t = target(
    lane,
    kindFor(r, (k) => k.protobuf),
  );
  const obj = body(lane, t, 0.3);
  const valid = encodeProtobuf(lane, obj) ?? encodeProtobuf(lane, t.kind.template(t.name, t.namespace, r))!;
  const payload = r.chance(0.6) ? mutateProtobuf(r, valid, t.kind.apiVersion, t.kind.kind) : valid;
  return { ...writeRequest(lane, t, payload, r.pick([PROTOBUF, 'application/vnd.orch.protobuf'])), category: 'protobuf-body' };
}

/** A JSON pointer to a node of the value; ~ and / escaped (or, now and then, not). */
function pointer(r: Random, path: (string | number)[]): string {
  return path.map((k) => `/${r.chance(0.95) ? String(k).replaceAll('~', '~0').replaceAll('/', '~1') : String(k)}`).join('');
}

function patchPointer(r: Random, value: unknown): string {
  return r.weighted([
    [8, pointer(r, r.pick(nodePaths(value)))],
    [1, `${pointer(r, r.pick(nodePaths(value)))}/${r.pick(['-', '0', '00', '-1', '999999999999', '1e3', randomString(r, 4)])}`],
    [
      1,
      r.pick([
        '',
        '/',
        '//',
        '~',
        '/~2',
        '/~',
        'metadata',
        '/metadata/',
        `/data/${'x'.repeat(300)}`,
        '/spec/containers/-/name',
        '/__proto__/x',
        '/constructor/prototype',
      ]),
    ],
  ]);
}

function jsonPatchOp(r: Random, value: unknown): Record<string, unknown> {
  const op = r.weighted([
    [4, 'add'],
    [3, 'replace'],
    [3, 'remove'],
    [2, 'move'],
    [2, 'copy'],
    [2, 'test'],
    [1, r.pick(['', 'ADD', 'merge', randomString(r, 5)])],
  ]);
  const o: Record<string, unknown> = { op, path: patchPointer(r, value) };
  if (op === 'move' || op === 'copy' || r.chance(0.05)) o.from = patchPointer(r, value);
  if (op === 'add' || op === 'replace' || op === 'test' || r.chance(0.05))
    o.value = r.chance(0.2) ? structuredClone(value) : randomValue(r, 3);
  if (r.chance(0.05)) delete o[r.pick(['op', 'path', 'from', 'value'])];
  if (r.chance(0.05)) o[r.pick(['op', 'path', 'from'])] = randomValue(r, 1);
  return o;
}

function patchRequest(
  lane: Lane,
  category: Category,
  t: Target,
  payload: Buffer | string,
  contentType: string,
  extra: [string, string][] = [],
): Input {
  const r = lane.r;
  const sub =
    t.kind.subresources.includes('status') && r.chance(0.1)
      ? '/status'
      : t.kind.subresources.includes('scale') && r.chance(0.05)
        ? '/scale'
        : '';
  const params = writeParams(r, t, extra);
  const dry = params.some(([k, v]) => k === 'dryRun' && v === 'All');
  return {
    category,
    req: { method: 'PATCH', path: `${t.path}${sub}${query(r, params)}`, headers: { 'Content-Type': contentType }, body: payload },
    expect: dry || t.sentinel || sub === '/scale' ? {} : { object: { kind: t.kind, namespace: t.namespace } },
  };
}

function jsonPatch(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  const base = t.kind.template(t.name, t.namespace, r);
  const ops = Array.from(
    {
      length: r.weighted([
        [9, r.int(1, 5)],
        [1, r.int(50, 2000)],
      ]),
    },
    () => jsonPatchOp(r, base),
  );
  const value: unknown = r.chance(0.05) ? r.pick([{}, 'x', null, ops[0], [[]], nested(r, valueDepth(r), [])]) : ops;
  const text = JSON.stringify(value);
  return patchRequest(lane, 'json-patch', t, r.chance(0.15) ? mutateJsonText(r, text) : text, 'application/json-patch+json');
}

/** Part of an object: some of its members (recursively), a few changed, some set to null (deleted by the patch). */
function partial(r: Random, v: unknown, depth = 0): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || depth > 6) return r.chance(0.2) ? randomValue(r, 2) : v;
  const out: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(v)) {
    if (k === 'apiVersion' || k === 'kind') out[k] = c;
    else if (r.chance(0.5)) out[k] = r.chance(0.1) ? null : partial(r, c, depth + 1);
  }
  return out;
}

function mergePatch(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  const p = partial(r, t.kind.template(t.name, t.namespace, r));
  const value = r.chance(0.3) ? mutateValue(r, p) : r.chance(0.05) ? r.pick([[], 'x', 1, null, nested(r, valueDepth(r))]) : p;
  const text = JSON.stringify(value);
  return patchRequest(lane, 'merge-patch', t, r.chance(0.15) ? mutateJsonText(r, text) : text, 'application/merge-patch+json');
}

/** Strategic merge directives placed into a partial object: $patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList. */
function withDirectives(r: Random, v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const items = v.map((x) => withDirectives(r, x));
    if (r.chance(0.3))
      items.push({ $patch: r.pick(['delete', 'replace', 'merge', 'x', '']), name: r.pick(['app', 'side', 'http', 'data', 'nope']) });
    if (r.chance(0.1)) items.push({ $patch: 'replace' });
    return items;
  }
  const o: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(v)) o[k] = withDirectives(r, c);
  if (r.chance(0.15)) o.$patch = r.pick(['delete', 'replace', 'merge', 'retainKeys', randomString(r, 4), 1, null]);
  if (r.chance(0.1)) o.$retainKeys = r.pick([Object.keys(o), [], ['x'], 'name', [1, null]]);
  for (const k of Object.keys(v)) {
    if (r.chance(0.08))
      o[`$setElementOrder/${k}`] = r.pick([[{ name: 'app' }, { name: 'side' }], [{ containerPort: 8080 }], ['a', 'b'], [], 'x', [null]]);
    if (r.chance(0.05)) o[`$deleteFromPrimitiveList/${k}`] = r.pick([['a'], [], 'x', [{ a: 1 }]]);
  }
  if (r.chance(0.05)) o[`$${randomString(r, 6)}`] = randomValue(r, 1);
  return o;
}

function strategicMergePatch(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  let p = withDirectives(r, partial(r, t.kind.template(t.name, t.namespace, r)));
  if (r.chance(0.25)) p = mutateValue(r, p);
  const text = JSON.stringify(p);
  return patchRequest(
    lane,
    'strategic-merge-patch',
    t,
    r.chance(0.15) ? mutateJsonText(r, text) : text,
    'application/strategic-merge-patch+json',
  );
}

function applyParams(r: Random, lane: Lane): [string, string][] {
  const p: [string, string][] = [];
  if (r.chance(0.9)) p.push(['fieldManager', r.chance(0.9) ? `fuzz-apply-${lane.index}-${r.int(0, 2)}` : randomString(r, 20)]);
  if (r.chance(0.3)) p.push(['force', r.pick(['true', 'false', '1', 'yes'])]);
  return p;
}

function apply(lane: Lane, category: 'apply-yaml' | 'apply-json'): Input {
  const r = lane.r;
  const t = target(lane, kindFor(r));
  let obj: unknown = t.kind.template(t.name, t.namespace, r);
  if (r.chance(0.4)) obj = partial(r, obj);
  if (r.chance(0.4)) obj = mutateValue(r, obj);
  if (category === 'apply-yaml') {
    const text = yamlText(r, obj);
    return patchRequest(
      lane,
      category,
      t,
      r.chance(0.3) ? mutateYaml(r, text) : text,
      'application/apply-patch+yaml',
      applyParams(r, lane),
    );
  }
  const text = JSON.stringify(obj);
  const type = r.weighted([
    [8, 'application/apply-patch+yaml'],
    [1, 'application/apply-patch+json'],
    [1, 'application/apply-patch+cbor'],
  ]);
  return patchRequest(lane, category, t, r.chance(0.3) ? mutateJsonText(r, text) : text, type, applyParams(r, lane));
}

/** A collection to read: the lane's namespace, the sentinels', every namespace, or one that does not exist. */
function readCollection(lane: Lane, kind: FuzzKind): string {
  const r = lane.r;
  if (!kind.namespaced) return kind.collection('');
  const ns = r.weighted([
    [5, lane.namespace],
    [3, SENTINEL_NAMESPACE],
    [2, ''],
    [1, randomString(r, 10)],
  ]);
  const collection = kind.collection(ns === '' ? 'x' : enc(r, ns));
  return ns === '' ? collection.replace('/namespaces/x', '') : collection;
}

function selectors(lane: Lane): Input {
  const r = lane.r;
  const kind = kindFor(r);
  const params: [string, string][] = [];
  if (r.chance(0.7)) params.push(['labelSelector', labelSelector(r)]);
  if (r.chance(0.5) || params.length === 0) params.push(['fieldSelector', fieldSelector(r)]);
  const watch = r.chance(0.25);
  if (watch) params.push(['watch', 'true']);
  if (r.chance(0.3)) params.push(['limit', String(r.int(0, 5))]);
  if (r.chance(0.2)) params.push(['resourceVersion', r.pick(['0', ''])]);
  return {
    category: 'selectors',
    req: { method: 'GET', path: readCollection(lane, kind) + query(r, params), ...(watch ? { streamMs: 150 } : {}) },
    expect: {},
  };
}

const BOOLEANS = ['true', 'false', '1', '0', '', 'TRUE', 'yes', 'null', '2'];

/** Every list, watch, get, write, delete and log parameter the server reads, with good and garbage values. */
function paramValue(r: Random, name: string): string {
  const garbage = () =>
    r.weighted([
      [3, randomString(r, 12)],
      [1, r.pick(EDGE_NUMBER_TEXTS)],
      [1, String(r.pick([-1, 0, 2 ** 31, 2 ** 53, 2 ** 64]))],
      [1, 'x'.repeat(r.pick([1000, 10_000]))],
      [1, r.pick(ODD_CHARS)],
    ]);
  if (r.chance(0.4)) return garbage();
  switch (name) {
    case 'limit':
    case 'timeoutSeconds':
    case 'gracePeriodSeconds':
    case 'sinceSeconds':
    case 'tailLines':
    case 'limitBytes':
      return r.pick(['0', '1', '2', '5', '500', '-1', String(2 ** 31), '9007199254740993', '99999999999999999999']);
    case 'resourceVersion':
      return r.pick(['', '0', '1', '2', '10', '-1', '1.5', '0x10', ' 1', '99999999999999999999', 'abc']);
    case 'resourceVersionMatch':
      return r.pick(['', 'NotOlderThan', 'Exact', 'exact', 'MostRecent', 'x']);
    case 'continue':
      return r.pick([
        '',
        Buffer.from(
          JSON.stringify({ v: 'meta.k8s.io/v1', rv: r.int(-1, 100), start: r.pick(['', 'f0', '\u0000', '../', randomString(r, 6)]) }),
        ).toString('base64'),
        Buffer.from(randomString(r, 30)).toString('base64'),
        Buffer.from(JSON.stringify(randomValue(r, 2))).toString('base64url'),
        'not base64 !',
      ]);
    case 'propagationPolicy':
      return r.pick(['Orphan', 'Background', 'Foreground', '', 'orphan']);
    case 'fieldValidation':
      return r.pick(['Strict', 'Warn', 'Ignore', '', 'strict']);
    case 'dryRun':
      return r.pick(['All', '', 'all', 'true']);
    case 'fieldManager':
      return r.chance(0.5) ? `fuzz-${plainString(r)}` : randomString(r, 150);
    case 'labelSelector':
      return labelSelector(r);
    case 'fieldSelector':
      return fieldSelector(r);
    case 'container':
      return r.pick(['app', 'side', '', 'nope']);
    default:
      return r.pick(BOOLEANS);
  }
}

const LIST_PARAMS = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
  'pretty',
];
const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty'];
const DELETE_PARAMS = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy', 'pretty', ...LIST_PARAMS];
const LOG_PARAMS = [
  'container',
  'follow',
  'previous',
  'sinceSeconds',
  'sinceTime',
  'tailLines',
  'timestamps',
  'limitBytes',
  'insecureSkipTLSVerifyBackend',
];
const OTHER_PARAMS = ['exclude', 'verbose', 'includeObject', 'hash', 'watchList', 'export', 'exact'];

function randomParams(r: Random, names: string[]): [string, string][] {
  const pool = [...names, ...OTHER_PARAMS];
  const out: [string, string][] = [];
  for (
    let n = r.weighted([
      [8, r.int(1, 4)],
      [1, r.int(5, 20)],
      [1, r.int(200, 1000)],
    ]);
    n > 0;
    n--
  ) {
    const name = r.chance(0.95) ? r.pick(pool) : randomString(r, 8);
    out.push([name, paramValue(r, name)]);
  }
  return out;
}

/** A path near the API's: odd namespaces, names, subresources, versions, and segments of odd characters. */
function oddPath(lane: Lane): string {
  const r = lane.r;
  const kind = kindFor(r);
  const seg = () => r.pick([randomString(r, 10), ...BAD_PERCENT, '..', '.', '%2E%2E', '', 'x'.repeat(r.pick([300, 5000]))]);
  return r.pick([
    `${kind.collection(lane.namespace)}/${seg()}`,
    `${kind.collection(lane.namespace)}/${laneName(lane, kind)}/${seg()}`,
    `${kind.collection(seg())}`,
    `/api/v1/namespaces/${lane.namespace}/${seg()}`,
    `/apis/${seg()}/v1/namespaces/${lane.namespace}/${kind.name}s`,
    `/apis/apps/${seg()}/deployments`,
    `/api/${seg()}`,
    `/apis/stable.example.com/${seg()}`,
    `//api/v1/namespaces/${lane.namespace}/configmaps`,
    `/api/v1/namespaces/${lane.namespace}/configmaps/${laneName(lane, KINDS.configmap)}/status`,
    `/api/v1/namespaces/${lane.namespace}/pods/${laneName(lane, KINDS.pod)}/${r.pick(['log', 'exec', 'attach', 'proxy', 'portforward', 'binding', 'eviction', 'ephemeralcontainers', 'resize'])}`,
    `/api/v1/namespaces/${lane.namespace}/services/${seg()}/proxy/${seg()}`,
    `/api/v1/nodes/${seg()}/proxy/${seg()}`,
    `/openapi/v3/${seg()}`,
    `/openapi/v2?${seg()}`,
    `/${r.pick(['healthz', 'livez', 'readyz', 'version', 'metrics', 'apis', 'api'])}/${seg()}`,
  ]);
}

function queryInput(lane: Lane): Input {
  const r = lane.r;
  const kind = kindFor(r);
  const mode = r.weighted([
    [4, 'list'],
    [2, 'watch'],
    [3, 'get'],
    [2, 'patch'],
    [2, 'delete'],
    [1, 'deletecollection'],
    [1, 'log'],
    [2, 'odd'],
  ]);
  const own = itemPath(kind, lane.namespace, laneName(lane, kind));
  switch (mode) {
    case 'list': {
      // A list whose random parameters name watch (any value but false or 0) is a watch: its answer
      // never ends, so it is read as one.
      const params = randomParams(r, LIST_PARAMS);
      return {
        category: 'query',
        req: {
          method: 'GET',
          path: readCollection(lane, kind) + query(r, params),
          ...(params.some(([k]) => k === 'watch') ? { streamMs: 150 } : {}),
        },
        expect: {},
      };
    }
    case 'watch':
      return {
        category: 'query',
        req: {
          method: 'GET',
          path: readCollection(lane, kind) + query(r, [['watch', r.pick(['true', '1', ''])], ...randomParams(r, LIST_PARAMS)]),
          streamMs: 150,
        },
        expect: {},
      };
    case 'get': {
      const path = r.chance(0.3) ? itemPath(kind, SENTINEL_NAMESPACE, sentinelName(kind)) : own;
      return {
        category: 'query',
        req: { method: 'GET', path: path + query(r, randomParams(r, [...LIST_PARAMS, 'exact', 'export'])), streamMs: 150 },
        expect: {},
      };
    }
    case 'patch':
      return {
        category: 'query',
        req: {
          method: 'PATCH',
          path: own + query(r, randomParams(r, WRITE_PARAMS)),
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: '{"metadata":{"labels":{"q":"1"}}}',
        },
        expect: {},
      };
    case 'delete': {
      const params = randomParams(r, DELETE_PARAMS);
      const opts = r.chance(0.5)
        ? JSON.stringify(
            r.pick([
              {
                kind: 'DeleteOptions',
                apiVersion: 'v1',
                gracePeriodSeconds: r.pick([0, -1, 30, 2 ** 53]),
                preconditions: { uid: r.pick(['', 'x']), resourceVersion: r.pick(['1', 'x']) },
                propagationPolicy: r.pick(['Orphan', 'x']),
              },
              mutateValue(r, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'], orphanDependents: true }),
            ]),
          )
        : undefined;
      return {
        category: 'query',
        req: {
          method: 'DELETE',
          path: own + query(r, params),
          ...(opts ? { body: opts, headers: { 'Content-Type': 'application/json' } } : {}),
        },
        expect: params.some(([k]) => k === 'dryRun') || opts ? {} : { deleted: own },
      };
    }
    case 'deletecollection': {
      // Only the lane's own namespace, or anything with dryRun=All (a dry run deletes nothing).
      const path = kind.namespaced ? kind.collection(lane.namespace) : kind.collection('');
      const params = randomParams(r, DELETE_PARAMS).filter(([k]) => k !== 'dryRun');
      if (!kind.namespaced || r.chance(0.5)) params.push(['dryRun', 'All']);
      return { category: 'query', req: { method: 'DELETE', path: path + query(r, params) }, expect: {} };
    }
    case 'log':
      return {
        category: 'query',
        req: {
          method: 'GET',
          path: `${itemPath(KINDS.pod, lane.namespace, laneName(lane, KINDS.pod))}/log${query(r, randomParams(r, LOG_PARAMS))}`,
          streamMs: 150,
        },
        expect: {},
      };
    default: {
      // A write to an odd path may land anywhere (an empty segment is the collection, `..` its parent: a
      // DELETE of every CRD), so it is a dry run.
      const method = r.pick(['GET', 'GET', 'GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND']);
      const params = randomParams(r, LIST_PARAMS).filter(([k]) => k !== 'dryRun');
      if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) params.push(['dryRun', 'All']);
      const body = r.chance(0.5) ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {};
      return { category: 'query', req: { method, path: oddPath(lane) + query(r, params), streamMs: 150, ...body }, expect: {} };
    }
  }
}

const ACCEPTS = [
  'application/json',
  'application/yaml',
  PROTOBUF,
  'application/vnd.orch.protobuf',
  '*/*',
  'application/*',
  'text/html',
  '',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1;g=meta.orch.io',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io',
  'application/yaml;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v2;g=meta.k8s.io',
  'application/json;as=Nope;v=v1;g=meta.k8s.io',
  'application/json;as=;v=;g=',
  'application/json;q=0',
  'application/json;q=abc',
  'application/json;q=-1, application/yaml;q=1e400',
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/json;;;;',
  ';;;,,,',
  '/',
  'application/',
  'APPLICATION/JSON',
];

const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  PROTOBUF,
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'application/json; boundary=x; a; b=',
  'APPLICATION/JSON',
  'application/*',
  '*/*',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=--x',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+yaml; charset=utf-8',
  'application/cbor',
  '',
  ';',
  'application/json, application/yaml',
];

function headerValue(r: Random): string {
  // Node refuses control characters and anything beyond latin-1 in header values; those count as refused.
  return r.weighted([
    [4, plainString(r)],
    [2, randomString(r, 20)],
    [1, ''],
    [1, 'x'.repeat(r.pick([1000, 7000]))],
    [
      1,
      r.pick([
        'system:masters',
        'system:anonymous',
        'system:unauthenticated',
        'system:serviceaccount:fuzz-0:default',
        'system:node:n1',
        'admin',
        'system:admin',
      ]),
    ],
  ]);
}

function headersInput(lane: Lane): Input {
  const token = () => lane.token;
  const r = lane.r;
  const kind = kindFor(r);
  const t: Target = { kind, namespace: lane.namespace, name: laneName(lane, kind), path: '', sentinel: false };
  t.path = itemPath(kind, t.namespace, t.name);
  const headers: Record<string, string> = {};
  const write = r.chance(0.5);
  let payload: Buffer | string | undefined;
  if (write) {
    const obj = t.kind.template(t.name, t.namespace, r);
    const type = r.pick(CONTENT_TYPES);
    payload = type.includes('protobuf')
      ? (encodeProtobuf(lane, obj) ?? JSON.stringify(obj))
      : type.includes('yaml')
        ? yamlText(r, obj)
        : JSON.stringify(obj);
    if (r.chance(0.2)) payload = mutateBytes(r, Buffer.from(payload));
    headers['Content-Type'] = type;
  }
  if (r.chance(0.6))
    headers.Accept = r.chance(0.85) ? r.pick(ACCEPTS) : Array.from({ length: r.int(2, 300) }, () => r.pick(ACCEPTS)).join(', ');
  if (r.chance(0.35)) {
    headers['Impersonate-User'] = headerValue(r);
    if (r.chance(0.5)) headers['Impersonate-Group'] = headerValue(r);
    if (r.chance(0.2)) headers['Impersonate-Uid'] = headerValue(r);
    if (r.chance(0.3)) headers[`Impersonate-Extra-${r.pick(['scopes', 'a%2Fb', '%ZZ', 'x', '%E2%82', 'Reason'])}`] = headerValue(r);
  } else if (r.chance(0.15)) headers[r.pick(['Impersonate-Group', 'Impersonate-Uid', 'Impersonate-Extra-x'])] = headerValue(r);
  if (r.chance(0.3)) {
    headers.Authorization = r.pick([
      '',
      'Bearer',
      'Bearer ',
      `Bearer ${plainString(r, 8, 40)}`,
      `Bearer ${token()} extra`,
      `Bearer  ${token()}`,
      `bearer ${token()}`,
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'Basic !!!',
      `Bearer ${'x'.repeat(8000)}`,
      `Bearer ${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'admin', iss: 'x' })).toString('base64url')}.`,
      'Bearer eyJ.eyJ.eyJ',
      'Negotiate x',
      randomString(r, 20),
    ]);
  }
  if (r.chance(0.1))
    headers[
      r.pick([
        'X-Remote-User',
        'X-Remote-Group',
        'X-Forwarded-For',
        'X-HTTP-Method-Override',
        'Accept-Encoding',
        'Content-Encoding',
        'Audit-ID',
        'User-Agent',
        'Expect',
      ])
    ] = headerValue(r);
  const method = write ? r.pick(['POST', 'PUT', 'PATCH']) : 'GET';
  // Reads also of the subresources every kind answers in its own kinds (the history listing has no protobuf form).
  const sub = () => `${t.path}/${r.pick(['history', 'history?resourceVersion=1', 'status', 'scale'])}`;
  const path =
    write && method === 'POST'
      ? kind.collection(lane.namespace)
      : write
        ? t.path
        : r.weighted<() => string>([
            [2, () => readCollection(lane, kind)],
            [1, sub],
            [7, () => t.path],
          ])();
  return {
    category: 'headers',
    req: { method, path: path + query(r, write ? writeParams(r, t) : []), headers, body: payload, streamMs: 150 },
    expect: {},
  };
}

// ---- the inputs of the known bugs ----

/** JSON patches of many copies: each doubles the object (copy into its own child), or copies one big value thousands of times. */
function jsonPatchCopies(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, KINDS.configmap);
  const ops: unknown[] = [{ op: 'add', path: '/data/seed', value: 'x'.repeat(r.pick([10, 1000, 100_000])) }];
  if (r.chance(0.5)) for (let i = 0; i < r.int(20, 40); i++) ops.push({ op: 'copy', from: '/data', path: `/data/c${i}` });
  else for (let i = 0; i < r.int(1000, 20_000); i++) ops.push({ op: 'copy', from: '/data/seed', path: `/metadata/annotations/c${i}` });
  return patchRequest(lane, 'json-patch-copies', t, JSON.stringify(ops), 'application/json-patch+json');
}

/** YAML bodies (and apply patches) nested thousands of levels deep. */
function deepYamlInput(lane: Lane): Input {
  const r = lane.r;
  const t = target(lane, KINDS.configmap);
  const payload = deepYamlBody(r);
  if (r.chance(0.5)) return { ...writeRequest(lane, t, payload, 'application/yaml'), category: 'deep-yaml' };
  return patchRequest(lane, 'deep-yaml', t, payload, 'application/apply-patch+yaml', [['fieldManager', 'fuzz-deep']]);
}

/** Protobuf strings holding lone surrogates (CESU-8 bytes), and JSON writes of lone surrogates read back as protobuf. */
function protobufLoneSurrogates(lane: Lane): Input {
  const r = lane.r;
  const t = target(
    lane,
    kindFor(r, (k) => k.protobuf),
  );
  const obj = t.kind.template(t.name, t.namespace, r);
  if (r.chance(0.5)) {
    const valid = encodeProtobuf(lane, obj)!;
    return { ...writeRequest(lane, t, withLoneSurrogate(r, valid), PROTOBUF), category: 'protobuf-lone-surrogates' };
  }
  const lone = r.pick(['\ud800', '\udfff', '\udc00\ud800', 'a\ud83d']);
  obj.metadata.annotations = { ...obj.metadata.annotations, lone: `x${lone}y` };
  if (t.kind.name === 'configmap') obj.data.lone = lone;
  const write = writeRequest(lane, t, JSON.stringify(obj), 'application/json');
  write.req.headers = { ...write.req.headers, Accept: r.pick([PROTOBUF, `${PROTOBUF}, application/json`]) };
  // The answer is protobuf: nothing to compare it with as JSON.
  return { ...write, category: 'protobuf-lone-surrogates', expect: {} };
}

const GENERATORS: Record<Category, (lane: Lane) => Input> = {
  'json-body': jsonBody,
  'yaml-body': yamlBody,
  'protobuf-body': protobufBody,
  'json-patch': jsonPatch,
  'merge-patch': mergePatch,
  'strategic-merge-patch': strategicMergePatch,
  'apply-yaml': (l) => apply(l, 'apply-yaml'),
  'apply-json': (l) => apply(l, 'apply-json'),
  selectors,
  query: queryInput,
  headers: headersInput,
  'json-patch-copies': jsonPatchCopies,
  'deep-yaml': deepYamlInput,
  'protobuf-lone-surrogates': protobufLoneSurrogates,
};
