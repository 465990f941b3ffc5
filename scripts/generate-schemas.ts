/**
 * Generates apiserver/api/generated/definitions.ts (schemas) and types.ts (TypeScript interfaces, see
 * schema-types.ts) from Kubernetes' OpenAPI definitions (reference data,
 * e.g. ../shared/reference/kubernetes-1.28-openapi-definitions.json): the served kinds and every type
 * they reach, with names shortened (io.k8s.api.core.v1.Pod → core.v1.Pod,
 * io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta → meta.v1.ObjectMeta), `x-kubernetes-*` markers
 * renamed `x-orch-*`, and groups written without their domain (storage.k8s.io → storage), so the
 * server applies its configured domain. The output is committed; nothing reads the reference at run time.
 *
 *   npm run build && node dist/scripts/generate-schemas.js <definitions.json>
 *
 * The served kinds are read from the resource table (registry/resources/index.ts), so a new declaration
 * followed by a run of this script is all a new kind's schema needs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { historyDefinitions } from '../apiserver/api/history-definitions.js';
import { allResources } from '../apiserver/registry/resources/index.js';
import { emitTypes } from './schema-types.js';

/** Roots besides the served kinds (whose schema names come from the resource table): meta types the server writes. */
export const EXTRA_ROOTS = [
  'io.k8s.api.autoscaling.v1.Scale',
  'io.k8s.api.policy.v1.Eviction',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
];

type Json = Record<string, unknown>;

/**
 * Formats the reference leaves out but decoding depends on: a Quantity is a string in OpenAPI, yet
 * Kubernetes also accepts a JSON number for it (`cpu: 1`).
 */
const FORMATS: Record<string, string> = { 'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity' };

/**
 * A CustomResourceDefinition's schema (JSONSchemaProps) names its extensions under the server's domain
 * (`x-orch-list-type`, or `x-kubernetes-list-type` for k8s.io), which one static schema cannot say:
 * decoding keeps it whole and the CRD's validation checks it (registry/apiextensions/).
 */
const PRESERVED = new Set(['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps']);

/**
 * Fields the reference leaves out with its descriptions: a field that is itself named `description`
 * (the types whose protobuf message has one, kubernetes-1.28-proto-fields.json).
 */
const DESCRIPTION_FIELDS = new Set([
  'io.k8s.api.scheduling.v1.PriorityClass',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
]);

/**
 * Versions served with another version's definition, the same shape (the definitions predate them):
 * ValidatingAdmissionPolicy went GA in Kubernetes 1.30 with v1beta1's fields. Their kinds are added
 * to the definition's group-version-kinds, so the protobuf codec maps them to the same message.
 */
const ALSO_SERVED_AS: Record<string, { group: string; kind: string; version: string }[]> = {
  'io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy': [
    { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', version: 'v1' },
  ],
  'io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding': [
    { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicyBinding', version: 'v1' },
  ],
};

export function shortName(name: string): string {
  return name
    .replace(/^io\.k8s\.api\./, '')
    .replace(/^io\.k8s\.apimachinery\.pkg\.apis\.meta\./, 'meta.')
    .replace(/^io\.k8s\.apimachinery\.pkg\./, '')
    .replace(/^io\.k8s\.apiextensions-apiserver\.pkg\.apis\./, '')
    .replace(/^io\.k8s\.kube-aggregator\.pkg\.apis\./, '')
    .replace(/^io\.k8s\./, '');
}

/** Rewrites one schema node: markers renamed, $refs shortened, groups stripped of their domain. */
function convert(node: unknown, refs: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, refs));
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'description' && typeof v === 'string') continue;
    if (k === '$ref' && typeof v === 'string') {
      const target = String(v).replace('#/definitions/', '');
      refs.add(target);
      out.$ref = `#/definitions/${shortName(target)}`;
      continue;
    }
    if (k === 'format' && v === 'int-or-string') {
      out['x-orch-int-or-string'] = true;
      continue;
    }
    const key = k.startsWith('x-kubernetes-') ? `x-orch-${k.slice('x-kubernetes-'.length)}` : k;
    out[key] = convert(v, refs);
  }
  return out;
}

export function generate(defs: Record<string, Json>, roots: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const queue = [...roots];
  const seen = new Set<string>();
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = defs[name];
    if (!def) throw new Error(`no definition ${name}`);
    const refs = new Set<string>();
    const converted = convert(def, refs) as Json;
    if (FORMATS[name]) converted.format = FORMATS[name];
    if (ALSO_SERVED_AS[name])
      converted['x-orch-group-version-kind'] = [...((converted['x-orch-group-version-kind'] as Json[]) ?? []), ...ALSO_SERVED_AS[name]];
    if (PRESERVED.has(name)) converted['x-orch-preserve-unknown-fields'] = true;
    if (DESCRIPTION_FIELDS.has(name)) converted.properties = { ...(converted.properties as Json), description: { type: 'string' } };
    out[shortName(name)] = converted;
    queue.push(...refs);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The committed files, by path relative to the repository root. */
export const OUTPUTS = { definitions: 'apiserver/api/generated/definitions.ts', types: 'apiserver/api/generated/types.ts' } as const;

/** Both generated files' text from the reference definitions document: pure, so a test can compare it with the committed files. */
export function render(doc: { definitions: Record<string, Json> }): Record<keyof typeof OUTPUTS, string> {
  // orch's own kinds (the history group) have their schemas in history-definitions.ts, not in Kubernetes' reference.
  const wanted = new Set(
    allResources
      .flatMap((r) => [r.schema, ...Object.values(r.createSubresources ?? {}).map((sub) => sub.schema)])
      .filter((schema) => !(schema in historyDefinitions)),
  );
  const served = Object.keys(doc.definitions).filter((name) => wanted.has(shortName(name)));
  const missing = [...wanted].filter((w) => !served.some((name) => shortName(name) === w));
  if (missing.length) throw new Error(`no reference definition for ${missing.join(', ')}`);
  const defs = generate(doc.definitions, [...served, ...EXTRA_ROOTS]);
  const definitions = [
    '// Generated by scripts/generate-schemas.ts from Kubernetes 1.28 OpenAPI definitions. Do not edit.',
    "import type { Definitions } from '../schema.js';",
    '',
    `export const definitions: Definitions = ${JSON.stringify(defs, null, 2)};`,
    '',
  ].join('\n');
  const kinds = new Set([...served, ...EXTRA_ROOTS.filter((r) => r.endsWith('.Scale'))].map(shortName));
  return { definitions, types: emitTypes(defs, kinds) };
}

function main(): void {
  const [input] = process.argv.slice(2);
  if (!input) {
    console.error('usage: generate-schemas <kubernetes-openapi-definitions.json>');
    process.exit(2);
  }
  const files = render(JSON.parse(readFileSync(input, 'utf8')) as { definitions: Record<string, Json> });
  for (const [key, path] of Object.entries(OUTPUTS)) writeFileSync(path, files[key as keyof typeof OUTPUTS]);
  console.log(`wrote ${Object.values(OUTPUTS).join(' and ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
