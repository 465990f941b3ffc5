/**
 * Where the protobuf message definitions live and the shape of the committed field table they are
 * generated from (proto/source/kubernetes-1.28-proto.json, by scripts/generate-proto.ts).
 */
import { fileURLToPath } from 'node:url';

/** proto/ at the repository root (this file runs from dist/apiserver/runtime/protobuf/). */
export const PROTO_DIR = fileURLToPath(new URL('../../../../proto/', import.meta.url));
export const PROTO_SOURCE = `${PROTO_DIR}source/kubernetes-1.28-proto.json`;

export interface ProtoField {
  /** "optional", "repeated", or "" for a map. */
  label: string;
  /** A scalar ("string", "int64"), a message's full name, or "map<string,…>". */
  type: string;
  name: string;
  number: number;
  /** The JSON key when it is not `name`. */
  json?: string;
  /** Go's facts: "pointer", "omitempty", "inline", comma-separated. */
  go?: string;
}

export interface FieldTable {
  source: string;
  packages: Record<string, { file: string; messages: Record<string, ProtoField[]> }>;
}

/**
 * The protobuf package of a schema-name prefix of api/generated/definitions.ts ("core.v1",
 * "meta.v1", "api.resource", "util.intstr", "apiextensions.v1"): the one package named so.
 */
export function protoPackageOf(schemaPrefix: string, packages: readonly string[]): string | undefined {
  const found = packages.filter((p) => p.endsWith(`.${schemaPrefix}`));
  return found.length === 1 ? found[0] : undefined;
}
