/**
 * The protobuf form of served objects: which message each served apiVersion/kind is (from the
 * schemas' group-version-kinds, with the API domain applied), and objects to and from the envelope.
 * Kinds without a message (custom resources) have no protobuf form; negotiation asks `has()` first.
 */
import type { ApiDomain } from '../../api/domain.js';
import type { Definitions } from '../../api/schema.js';
import { protoPackageOf } from './field-table.js';
import { type DecodeContext, decodeMessage, encodeMessage } from './message-codec.js';
import { type MessageDescriptor, protoMessage, protoMessages } from './message-types.js';
import { decodeEnvelope, encodeEnvelope, encodeWatchFrame } from './envelope.js';
import { ProtobufError } from './wire-reader.js';

type Json = Record<string, unknown>;

const META = 'k8s.io.apimachinery.pkg.apis.meta';

export interface ProtobufCodec {
  /** Whether objects of this apiVersion and kind have a protobuf form. */
  has(apiVersion: string, kind: string): boolean;
  /** An object (with apiVersion and kind) in the envelope; a ProtobufError when its kind has no message. */
  encode(obj: Json): Buffer;
  /** A watch stream frame for an event of an object (or Status). */
  watchFrame(type: string, obj: Json): Buffer;
  /**
   * A body in the envelope, as the JSON object of the message its kind names (or `fallback`, the
   * kind the endpoint expects, when the envelope names none), apiVersion/kind from the envelope.
   */
  decode(bytes: Uint8Array, fallback?: { apiVersion: string; kind: string }): { value: Json; unknownFields: string[] };
}

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** `${apiVersion}/${kind}` → message, for every kind of the definitions and their lists. */
function kindIndex(domain: ApiDomain, definitions: Definitions): Map<string, MessageDescriptor> {
  const index = new Map<string, MessageDescriptor>();
  const packages = [...new Set([...protoMessages().keys()].map((n) => n.slice(0, n.lastIndexOf('.'))))];
  const add = (apiVersion: string, kind: string, message: string) => {
    const desc = protoMessage(message);
    if (desc && !index.has(`${apiVersion}/${kind}`)) index.set(`${apiVersion}/${kind}`, desc);
  };
  for (const [name, schema] of Object.entries(definitions)) {
    const gvks = (schema as { 'x-orch-group-version-kind'?: GroupVersionKind[] })['x-orch-group-version-kind'] ?? [];
    const prefix = name.slice(0, name.lastIndexOf('.'));
    const pkg = protoPackageOf(prefix, packages);
    if (!pkg) continue;
    const message = `${pkg}.${name.slice(prefix.length + 1)}`;
    for (const { group, version, kind } of gvks) {
      const served = domain.group(group);
      const apiVersion = served ? `${served}/${version}` : version;
      add(apiVersion, kind, message);
      add(apiVersion, `${kind}List`, `${message}List`);
    }
  }
  for (const group of domain.viewGroups) {
    for (const version of ['v1', 'v1beta1']) {
      add(`${group}/${version}`, 'PartialObjectMetadata', `${META}.v1.PartialObjectMetadata`);
      add(`${group}/${version}`, 'PartialObjectMetadataList', `${META}.${version}.PartialObjectMetadataList`);
    }
  }
  return index;
}

function typeOf(obj: Json): [string, string] {
  return [typeof obj.apiVersion === 'string' ? obj.apiVersion : '', typeof obj.kind === 'string' ? obj.kind : ''];
}

export function newProtobufCodec(domain: ApiDomain, definitions: Definitions): ProtobufCodec {
  let index: Map<string, MessageDescriptor> | undefined;
  const lookup = (apiVersion: string, kind: string) => (index ??= kindIndex(domain, definitions)).get(`${apiVersion}/${kind}`);
  const encode = (obj: Json): Buffer => {
    const [apiVersion, kind] = typeOf(obj);
    const desc = lookup(apiVersion, kind);
    if (!desc) throw new ProtobufError(`${apiVersion}, Kind=${kind} has no protobuf form`);
    return encodeEnvelope(apiVersion, kind, encodeMessage(desc, obj));
  };
  return {
    has: (apiVersion, kind) => lookup(apiVersion, kind) !== undefined,
    encode,
    watchFrame: (type, obj) => encodeWatchFrame(type, encode(obj)),
    decode(bytes, fallback) {
      const env = decodeEnvelope(bytes);
      const apiVersion = env.apiVersion || fallback?.apiVersion || '';
      const kind = env.kind || fallback?.kind || '';
      const desc = lookup(apiVersion, kind) ?? (fallback && lookup(fallback.apiVersion, fallback.kind));
      if (!desc) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
      if (env.contentEncoding) throw new ProtobufError(`unsupported content encoding "${env.contentEncoding}"`);
      const ctx: DecodeContext = { unknownFields: [] };
      const value = decodeMessage(desc, env.raw, ctx) as Json;
      const typed: Json = {};
      if (env.apiVersion) typed.apiVersion = env.apiVersion;
      if (env.kind) typed.kind = env.kind;
      return { value: { ...typed, ...value }, unknownFields: ctx.unknownFields };
    },
  };
}
