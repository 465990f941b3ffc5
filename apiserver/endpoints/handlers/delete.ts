/** DELETE of one object and DELETE of a collection, with DeleteOptions from the body and the query. */
import { isPlainObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { DeleteOptions } from '../../registry/generic/delete-options.js';
import { validatePropagation } from '../../registry/generic/deletion-propagation.js';
import { parseObjectBody, readBody } from '../body.js';
import { PROTOBUF_MEDIA_TYPES, mediaType } from '../negotiation.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { boolParam, intParam, parseListQuery } from './query.js';
import { renderAnswer, renderList } from './render-view.js';

/** JSON's name of a value's type, as Go's decoding errors name it. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${v}`;
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

const isString = (v: unknown) => typeof v === 'string';
/** DeleteOptions' fields and their Go types. */
const FIELD_TYPES: Record<string, [goType: string, ok: (v: unknown) => boolean]> = {
  kind: ['string', isString],
  apiVersion: ['string', isString],
  gracePeriodSeconds: ['int64', (v) => Number.isSafeInteger(v)],
  orphanDependents: ['bool', (v) => typeof v === 'boolean'],
  propagationPolicy: ['v1.DeletionPropagation', isString],
};

/**
 * The body's fields of another type than Go decodes them into are a 400 naming them (a kind or dryRun
 * entry with a member named toString made the message's String() throw: a 500); null ones are absent.
 */
function checkFieldTypes(body: Record<string, unknown>): void {
  const bad = (field: string, v: unknown, goType: string) =>
    status.badRequest(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${goType}`);
  for (const [field, v] of Object.entries(body)) {
    if (v === null) {
      delete body[field];
      continue;
    }
    const known = Object.hasOwn(FIELD_TYPES, field) ? FIELD_TYPES[field] : undefined;
    if (known && !known[1](v)) throw bad(`DeleteOptions.${field}`, v, known[0]);
    if (field === 'dryRun') {
      if (!Array.isArray(v)) throw bad('DeleteOptions.dryRun', v, '[]string');
      const wrong = v.find((x) => !isString(x));
      if (wrong !== undefined) throw bad('DeleteOptions.dryRun', wrong, 'string');
    }
    if (field === 'preconditions') {
      if (!isPlainObject(v)) throw bad('DeleteOptions.preconditions', v, 'v1.Preconditions');
      for (const key of ['uid', 'resourceVersion']) {
        if (v[key] === null) delete v[key];
        else if (v[key] !== undefined && !isString(v[key]))
          throw bad(`Preconditions.preconditions.${key}`, v[key], key === 'uid' ? 'types.UID' : 'string');
      }
    }
  }
}

async function deleteOptions(s: RequestScope): Promise<DeleteOptions> {
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  let opts: DeleteOptions = {};
  if (raw.length && raw.toString('utf8').trim()) {
    const asked = mediaType(s.req.headers['content-type']);
    const type = asked === 'application/yaml' || PROTOBUF_MEDIA_TYPES.includes(asked) ? asked : 'application/json';
    const body = parseObjectBody(raw, type, s.api.protobuf, { apiVersion: 'v1', kind: 'DeleteOptions' }).value;
    if (!isPlainObject(body)) throw status.badRequest('DeleteOptions: the body is not a JSON object');
    checkFieldTypes(body);
    if (body.kind !== undefined && body.kind !== 'DeleteOptions') throw status.badRequest(`expected DeleteOptions, got ${body.kind}`);
    opts = body as DeleteOptions;
  }
  const grace = intParam(s.query, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const orphan = boolParam(s.query, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = orphan;
  const policy = s.query.get('propagationPolicy');
  if (policy) opts.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  if (s.def.defaultPropagationWarning && opts.propagationPolicy === undefined && opts.orphanDependents === undefined)
    s.warnings.push(s.def.defaultPropagationWarning);
  const propagationErrors = validatePropagation(opts);
  if (propagationErrors.length) throw status.invalid({ group: s.api.table.domain.metaGroup, kind: 'DeleteOptions' }, '', propagationErrors);
  if (opts.dryRun?.length) {
    for (const v of opts.dryRun) if (v !== 'All') throw status.badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
    s.ctx.dryRun = true;
  }
  // What admission sees as the DELETE's DeleteOptions (the meta group's, whatever apiVersion the body named).
  const { kind: _kind, apiVersion: _apiVersion, ...fields } = opts as DeleteOptions & { kind?: unknown; apiVersion?: unknown };
  s.ctx.operationOptions = fields;
  return opts;
}

export async function handleDelete(s: RequestScope): Promise<void> {
  const opts = await deleteOptions(s);
  const { object, deleted } = await s.store.delete(s.ctx, s.info.name, opts);
  if (deleted && !s.def.returnDeletedObject) {
    respond(s, 200, status.success({ name: object.metadata.name, group: s.def.group, kind: s.def.plural, uid: object.metadata.uid }));
    return;
  }
  respond(s, !deleted && opts.orphanDependents === false ? 202 : 200, renderAnswer(s, object));
}

/** Deletes every object the list options select; answers the list of what was deleted. */
export async function handleDeleteCollection(s: RequestScope): Promise<void> {
  const opts = await deleteOptions(s);
  const list = await s.store.list(s.ctx, { ...parseListQuery(s.query), limit: undefined, continue: undefined });
  const items = [];
  for (const item of list.items) {
    try {
      const ctx = { ...s.ctx, namespace: item.metadata.namespace ?? '' };
      items.push((await s.store.delete(ctx, item.metadata.name!, opts)).object);
    } catch (err) {
      if (!status.isApiError(err, 'NotFound')) throw err;
    }
  }
  respond(s, 200, renderList(s, { ...list, items }));
}
