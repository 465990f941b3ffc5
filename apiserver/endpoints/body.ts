/**
 * Request bodies: read within --max-request-bytes (413), parsed as JSON, YAML or the protobuf
 * envelope (400 on anything malformed, too deep, or not an object), checked against the kind
 * (apiVersion/kind, types) and pruned of unknown fields as fieldValidation says.
 */
import type { IncomingMessage } from 'node:http';
import type { ApiObject } from '../api/object.js';
import { isPlainObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import { checkAgainstSchema, type FieldValidation } from '../api/schema-check.js';
import * as status from '../api/status.js';
import { PROTOBUF_MEDIA_TYPES, mediaType } from './negotiation.js';
import type { ProtobufCodec } from '../runtime/protobuf/codec.js';
import { ProtobufError } from '../runtime/protobuf/wire-reader.js';
import { decodeUtf8, wellFormed } from '../runtime/protobuf/utf8.js';
import { auditFrom } from './request/request-audit.js';
import { duplicateJsonFields, duplicateJsonKeysAsYaml, duplicateYamlKeys, yamlUnmarshalErrors } from '../api/duplicate-fields.js';
import { MAX_YAML_DEPTH, checkJsonDepth, depthOf, parseYamlAsJson, parseYamlDocuments, tooDeep } from './body-limits.js';
import { messageOf } from '../api/thrown.js';

export { MAX_JSON_DEPTH, MAX_YAML_DEPTH, MAX_YAML_TOKENS } from './body-limits.js';

/**
 * The request's body, refused (413) beyond maxBytes. Read with plain stream events, not `for await`:
 * the async iterator costs ≈25 µs per request (an iterator, end-of-stream tracking, listeners).
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) {
    req.resume();
    throw status.requestEntityTooLarge(maxBytes);
  }
  const body = await collectBody(req, maxBytes);
  auditFrom(req)?.recordRequestBody(body);
  return body;
}

/**
 * The stream's chunks until its end; a stream closed before its end (the client went away) fails. A
 * body that has wholly arrived (a small one usually comes with the headers) is taken in one read,
 * without listeners.
 */
function collectBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.complete && !req.readableFlowing) {
    const body = (req.read() as Buffer | null) ?? Buffer.alloc(0);
    return body.length <= maxBytes ? Promise.resolve(body) : Promise.reject(status.requestEntityTooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err: unknown, body?: Buffer) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', settle);
      req.off('close', onClose);
      if (body) resolve(body);
      else reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        settle(status.requestEntityTooLarge(maxBytes));
        req.resume();
      }
    };
    const onEnd = () => settle(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onClose = () =>
      settle(Object.assign(new Error('the request was closed before its body ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', settle);
    req.on('close', onClose);
  });
}

/** A parsed body and the keys it held twice (the last one wins, as in Kubernetes' lenient decoding). */
export interface ParsedDocument {
  value: unknown;
  /** A JSON body's: paths, `duplicate field "spec.foo"` in Kubernetes' words. */
  duplicateFields: string[];
  /**
   * A YAML body's (JSON text sent as YAML too), as sigs.k8s.io/yaml's strict conversion words them:
   * `line 9: key "foo" already set in map`, one a duplicate.
   */
  yamlDuplicates?: string[];
  /** Fields a protobuf body held that its message does not define ("spec.#12"). */
  unknownFields?: string[];
}

/** What a body must be, to decode a protobuf one: the kind's apiVersion and kind. */
export type BodyKind = Pick<ResourceDef, 'apiVersion' | 'kind'>;

/**
 * A body of an object kind by media type: the protobuf envelope (decoded as the message its kind
 * names, apiVersion/kind kept for decodeObject's check), else JSON or YAML as parseDocument.
 */
export function parseObjectBody(raw: Buffer, type: string, codec: ProtobufCodec, kind: BodyKind): ParsedDocument {
  if (!PROTOBUF_MEDIA_TYPES.includes(type)) return parseDocument(raw, type);
  try {
    const { value, unknownFields } = codec.decode(raw, kind);
    return { value, duplicateFields: [], unknownFields };
  } catch (err) {
    if (!(err instanceof ProtobufError)) throw err;
    throw status.badRequest(`the object provided is unrecognized (must be of type ${kind.kind}): ${err.message}`);
  }
}

/** A JSON or YAML escape of a UTF-16 surrogate, which may stand alone. */
const SURROGATE_ESCAPE = /\\(u|U0000)[dD][89a-fA-F]/;

/**
 * The value with every lone surrogate in its strings and keys replaced by U+FFFD, as Go's decoders do
 * (a JSON "\ud800" is U+FFFD in Kubernetes, so it answers and stores U+FFFD). Walked without recursion.
 */
function withoutLoneSurrogates(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] === 'string') v[i] = wellFormed(v[i]);
        else if (typeof v[i] === 'object' && v[i] !== null) stack.push(v[i]);
      }
    } else if (typeof v === 'object' && v !== null) {
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        let child = obj[key];
        if (typeof child === 'string') child = wellFormed(child);
        else if (typeof child === 'object' && child !== null) stack.push(child);
        const k = wellFormed(key);
        if (k !== key) delete obj[key];
        Object.defineProperty(obj, k, { value: child, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return value;
}

/**
 * Parses a JSON or YAML document (by media type) into a JSON value, within the limits of body-limits.ts:
 * nesting is bounded before anything recurses (JSON by a scan of the text, YAML by the parser's stack, and a
 * YAML value once more after its aliases are resolved), YAML's tokens are counted, and YAML that is JSON is
 * parsed as JSON. Text is read as Go reads it: each byte of invalid UTF-8 is U+FFFD, so is a lone surrogate.
 */
export function parseDocument(raw: Buffer, type: string): ParsedDocument {
  const text = decodeUtf8(raw);
  if (text.trim() === '') throw status.badRequest('the request body is empty');
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  const parsed = decodeText(text, yaml);
  if (SURROGATE_ESCAPE.test(text)) parsed.value = withoutLoneSurrogates(parsed.value);
  return parsed;
}

function decodeText(text: string, yaml: boolean): ParsedDocument {
  try {
    if (!yaml) {
      checkJsonDepth(text);
      return { value: JSON.parse(text), duplicateFields: duplicateJsonFields(text) };
    }
    const json = parseYamlAsJson(text);
    if (json) return { value: json.value, duplicateFields: [], yamlDuplicates: duplicateJsonKeysAsYaml(text) };
    const docs = parseYamlDocuments(text);
    if (docs.length !== 1) throw new Error('the body must hold exactly one YAML document');
    if (docs[0].errors.length) throw docs[0].errors[0];
    const value = docs[0].toJS({ maxAliasCount: 100 });
    if (depthOf(value, MAX_YAML_DEPTH) > MAX_YAML_DEPTH) throw tooDeep(MAX_YAML_DEPTH);
    return { value, duplicateFields: [], yamlDuplicates: duplicateYamlKeys(docs[0], text) };
  } catch (err) {
    throw status.badRequest(`error decoding ${yaml ? 'YAML' : 'JSON'}: ${messageOf(err)}`);
  }
}

export function parseFieldValidation(v: string | null): FieldValidation {
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw status.badRequest(`fieldValidation must be one of Ignore, Warn, or Strict, got "${v}"`);
}

export interface DecodedObject {
  object: ApiObject;
  /** Warnings for the response (unknown fields under fieldValidation=Warn). */
  warnings: string[];
}

/**
 * A body as an object of the resource's kind: apiVersion/kind must match when given, types must
 * match the schema, unknown fields are dropped (reported as warnings, or a 400 when Strict).
 */
/** A body's value in a message: a string as it is, anything else as JSON (String() of an array holding an object with a member named toString throws). */
function shown(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What decoding needs to know of the kind a body must be. */
export type DecodableKind = Pick<ResourceDef, 'kind' | 'version' | 'apiVersion' | 'schemaRef' | 'unstructured'>;

export function decodeObject(
  value: unknown,
  def: DecodableKind,
  defs: Definitions,
  validation: FieldValidation,
  duplicateFields: string[] = [],
  protobufUnknownFields: string[] = [],
  yamlDuplicates: string[] = [],
): DecodedObject {
  const what = `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`;
  if (!isPlainObject(value)) throw status.badRequest(`${what}: the body is not a JSON object`);
  if (value.apiVersion !== undefined && value.apiVersion !== def.apiVersion) {
    throw status.badRequest(
      `${what}: the API version in the data (${shown(value.apiVersion)}) does not match the expected API version (${def.apiVersion})`,
    );
  }
  if (value.kind !== undefined && value.kind !== def.kind) {
    throw status.badRequest(`${what}: the kind in the data (${shown(value.kind)}) does not match the expected kind (${def.kind})`);
  }
  if (value.metadata === undefined || value.metadata === null) value.metadata = {};
  const { errors, unknownFields } = checkAgainstSchema(value, def.schemaRef, defs);
  // A custom resource's own fields are checked by its strategy (422), but its metadata is typed as
  // every object's: Kubernetes refuses a wrong type there at decoding (400), and the metadata rules
  // that follow read names, labels and annotations as strings.
  const refused = def.unstructured ? errors.filter((e) => e.startsWith('metadata.') || e.startsWith('metadata:')) : errors;
  if (refused.length) throw status.badRequest(`${what}: ${refused.join('; ')}`);
  const messages = [
    ...[...protobufUnknownFields, ...unknownFields].map((f) => `unknown field "${f}"`),
    ...duplicateFields.map((f) => `duplicate field "${f}"`),
  ];
  // A YAML body's duplicates come first, as one error of the YAML conversion (one warning a line).
  if (validation === 'Strict' && (yamlDuplicates.length || messages.length)) {
    const errors = yamlDuplicates.length ? [yamlUnmarshalErrors(yamlDuplicates), ...messages] : messages;
    throw status.badRequest(`strict decoding error: ${errors.join(', ')}`);
  }
  return { object: value as ApiObject, warnings: validation === 'Warn' ? [...yamlDuplicates, ...messages] : [] };
}

/** Content types accepted for object bodies (create, update). */
export const OBJECT_CONTENT_TYPES = ['application/json', 'application/yaml', ...PROTOBUF_MEDIA_TYPES];

export function requireContentType(req: IncomingMessage, allowed: string[]): string {
  const type = mediaType(req.headers['content-type']) || 'application/json';
  if (!allowed.includes(type)) throw status.unsupportedMediaType(allowed);
  return type;
}
