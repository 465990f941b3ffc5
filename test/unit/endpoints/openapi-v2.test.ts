/**
 * /openapi/v2: the swagger 2.0 document, its gnostic protobuf encoding (decoded back with protobufjs
 * from the same .proto), HTTP negotiation and caching, and the real kubectl using it for validation.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import protobuf from 'protobufjs';
import YAML from 'yaml';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import { coreResources } from '../../../apiserver/registry/resources/core.js';
import { definitions } from '../../../apiserver/api/generated/definitions.js';
import { newOpenApiV2, OPENAPI_V2_PROTOBUF } from '../../../apiserver/endpoints/openapi-v2.js';
import { encodeGnosticDocument } from '../../../apiserver/endpoints/openapi-v2-gnostic.js';
import type { CustomResourceDefinition } from '../../../apiserver/api/generated/types.js';
import { customResourceServing } from '../../../apiserver/registry/apiextensions/customresource/resource-defs.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newKubectl } from '../../support/kubectl.js';

type Json = Record<string, any>;

const PROTO = fileURLToPath(new URL('../../../../proto/gnostic/openapiv2.proto', import.meta.url));
const gnostic = new protobuf.Root().loadSync(PROTO, { keepCase: true });
gnostic.resolveAll();
const Document = gnostic.lookupType('openapi.v2.Document');

function decode(bytes: Uint8Array): Json {
  return Document.toObject(Document.decode(bytes), { longs: Number });
}

const single = (list: unknown[]) => (list.length === 1 ? list[0] : list);

/** A decoded gnostic message back as the swagger JSON it stands for (the inverse of the server's conversion). */
function toJson(type: protobuf.Type, msg: Json): unknown {
  if (type.name === 'Any') return YAML.parse(msg.yaml);
  if (type.name === 'TypeItem') return single(msg.value);
  if (type.name === 'ItemsItem') return single(msg.schema.map((s: Json) => toJson(type.fields.schema.resolvedType as protobuf.Type, s)));
  const member = type.oneofsArray.flatMap((o) => o.oneof).find((name) => msg[name] !== undefined);
  if (member) return fieldJson(type.fields[member], msg[member]);
  const out: Json = {};
  for (const [key, value] of Object.entries(msg)) {
    const field = type.fields[key];
    const named = field.resolvedType;
    if (field.repeated && named instanceof protobuf.Type && named.name.startsWith('Named')) {
      for (const entry of value as Json[]) out[entry.name] = fieldJson(named.fields.value, entry.value);
    } else out[key === '_ref' ? '$ref' : key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = fieldJson(field, value);
  }
  return out;
}

function fieldJson(field: protobuf.Field, value: any): unknown {
  const type = field.resolvedType;
  if (!(type instanceof protobuf.Type)) return value;
  return field.repeated ? value.map((v: Json) => toJson(type, v)) : toJson(type, value);
}

const byName = (list: Json[], name: string) => list.find((e) => e.name === name)?.value;

const orch = newOpenApiV2(newResourceTable(newApiDomain('orch.io'), coreResources), definitions);
const orchDoc: Json = JSON.parse(orch.json());

describe('the OpenAPI v2 document', () => {
  it('is swagger 2.0 with every schema as a definition, published with the domain extension names', () => {
    assert.equal(orchDoc.swagger, '2.0');
    assert.equal(orchDoc.info.title, 'orch');
    assert.match(orchDoc.info.version, /^v1\.\d+\.\d+/);
    assert.deepEqual(Object.keys(orchDoc.definitions), Object.keys(definitions).sort());
    const cm = orchDoc.definitions['core.v1.ConfigMap'];
    assert.equal(cm.type, 'object');
    assert.deepEqual(cm.properties.metadata, { $ref: '#/definitions/meta.v1.ObjectMeta' });
    assert.deepEqual(cm['x-kubernetes-group-version-kind'], [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    assert.deepEqual(cm['x-orch-group-version-kind'], [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    const conditions = orchDoc.definitions['core.v1.NamespaceStatus'].properties.conditions;
    assert.equal(conditions['x-orch-patch-strategy'], 'merge');
    assert.equal(conditions['x-orch-patch-merge-key'], 'type');

    const kube = newOpenApiV2(newResourceTable(newApiDomain('k8s.io'), coreResources), definitions).json();
    assert.equal(JSON.parse(kube).definitions['core.v1.NamespaceStatus'].properties.conditions['x-kubernetes-patch-strategy'], 'merge');
    assert.doesNotMatch(kube, /x-orch-/);
  });

  it('has the collection, object and subresource paths of every resource', () => {
    const paths = orchDoc.paths;
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces/{namespace}/configmaps']), ['parameters', 'get', 'post', 'delete']);
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces/{namespace}/configmaps/{name}']), [
      'parameters',
      'get',
      'put',
      'patch',
      'delete',
    ]);
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces']), ['get', 'post', 'delete']);
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces/{name}/status']), ['parameters', 'get', 'put', 'patch']);
    assert.deepEqual(Object.keys(paths['/api/v1/namespaces/{name}/finalize']), ['parameters', 'get', 'put', 'patch']);
    assert.deepEqual(paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].parameters, [
      { name: 'namespace', in: 'path', required: true, type: 'string', uniqueItems: true },
      { name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true },
    ]);
    for (const def of coreResources) {
      const scope = def.namespaced ? '/namespaces/{namespace}' : '';
      const op = paths[`/api/v1${scope}/${def.plural}/{name}`].patch;
      assert.deepEqual(op['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: def.kind });
      assert.equal(op['x-kubernetes-action'], 'patch');
    }
  });

  it('describes operations with their parameters, media types, responses and group-version-kind', () => {
    const post = orchDoc.paths['/api/v1/namespaces/{namespace}/configmaps'].post;
    assert.deepEqual(post, {
      tags: ['core'],
      operationId: 'createCoreV1NamespacedConfigMap',
      consumes: ['*/*'],
      produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
      schemes: ['https'],
      parameters: [
        { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/core.v1.ConfigMap' } },
        { name: 'dryRun', in: 'query', type: 'string', uniqueItems: true },
        { name: 'fieldManager', in: 'query', type: 'string', uniqueItems: true },
        { name: 'fieldValidation', in: 'query', type: 'string', uniqueItems: true },
        { name: 'pretty', in: 'query', type: 'string', uniqueItems: true },
      ],
      responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/core.v1.ConfigMap' } } },
      'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'ConfigMap' },
      'x-kubernetes-action': 'post',
    });
    const patch = orchDoc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    assert.deepEqual(patch.consumes, [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.deepEqual(patch.parameters[0], { name: 'body', in: 'body', required: true, schema: { type: 'object' } });
    assert.deepEqual(
      patch.parameters.slice(1).map((p: Json) => `${p.name}:${p.type}`),
      ['dryRun:string', 'fieldManager:string', 'fieldValidation:string', 'pretty:string', 'force:boolean'],
    );
    const list = orchDoc.paths['/api/v1/namespaces/{namespace}/configmaps'].get;
    assert.equal(list['x-kubernetes-action'], 'list');
    assert.ok(list.parameters.some((p: Json) => p.name === 'watch' && p.type === 'boolean'));
  });

  it('encodes as gnostic openapi.v2.Document that decodes back to the same document', () => {
    const bytes = orch.protobuf();
    assert.equal(orch.protobuf(), bytes, 'built once and kept');
    assert.deepEqual(toJson(Document, decode(bytes)), orchDoc);
  });

  it('uses the gnostic message shapes client-go reads', () => {
    const msg = decode(orch.protobuf());
    assert.equal(msg.swagger, '2.0');
    const cm = byName(msg.definitions.additional_properties, 'core.v1.ConfigMap');
    assert.deepEqual(cm.type, { value: ['object'] });
    const fields = cm.properties.additional_properties;
    assert.deepEqual(byName(fields, 'metadata'), { _ref: '#/definitions/meta.v1.ObjectMeta' });
    assert.deepEqual(byName(fields, 'data'), {
      type: { value: ['object'] },
      additional_properties: { schema: { type: { value: ['string'] } } },
    });
    const gvk = byName(cm.vendor_extension, 'x-kubernetes-group-version-kind');
    assert.equal(gvk.yaml, '- group: ""\n  kind: ConfigMap\n  version: v1\n');
    const conditions = byName(
      byName(msg.definitions.additional_properties, 'core.v1.NamespaceStatus').properties.additional_properties,
      'conditions',
    );
    assert.deepEqual(conditions.items, { schema: [{ _ref: '#/definitions/core.v1.NamespaceCondition' }] });

    const item = byName(msg.paths.path, '/api/v1/namespaces/{namespace}/configmaps/{name}');
    assert.deepEqual(item.parameters[0], {
      parameter: {
        non_body_parameter: {
          path_parameter_sub_schema: { required: true, in: 'path', name: 'namespace', type: 'string', unique_items: true },
        },
      },
    });
    const [body, ...query] = item.patch.parameters;
    assert.deepEqual(body, {
      parameter: { body_parameter: { name: 'body', in: 'body', required: true, schema: { type: { value: ['object'] } } } },
    });
    assert.deepEqual(query[2], {
      parameter: {
        non_body_parameter: { query_parameter_sub_schema: { in: 'query', name: 'fieldValidation', type: 'string', unique_items: true } },
      },
    });
    assert.deepEqual(item.get.responses.response_code, [
      { name: '200', value: { response: { description: 'OK', schema: { schema: { _ref: '#/definitions/core.v1.ConfigMap' } } } } },
    ]);
    assert.equal(item.patch.operation_id, 'patchCoreV1NamespacedConfigMap');
    assert.deepEqual(
      item.patch.vendor_extension.map((e: Json) => [e.name, YAML.parse(e.value.yaml)]),
      [
        ['x-kubernetes-group-version-kind', { group: '', version: 'v1', kind: 'ConfigMap' }],
        ['x-kubernetes-action', 'patch'],
      ],
    );
  });

  it('writes values as YAML that Go (YAML 1.1) reads back as the same strings', () => {
    const msg = decode(encodeGnosticDocument({ swagger: '2.0', definitions: { Switch: { type: 'string', enum: ['on', 'yes', 'auto'] } } }));
    const schema = byName(msg.definitions.additional_properties, 'Switch');
    assert.deepEqual(schema.enum, [{ yaml: '"on"\n' }, { yaml: '"yes"\n' }, { yaml: 'auto\n' }]);
  });

  it('refuses keys the gnostic messages cannot hold instead of dropping them', () => {
    assert.throws(() => encodeGnosticDocument({ swagger: '2.0', openapi: '3.0.0' }), /Document has no field for "openapi"/);
    assert.throws(
      () => encodeGnosticDocument({ swagger: '2.0', definitions: { A: { type: 'string', nullable: true } } }),
      /Schema has no field for "nullable"/,
    );
    assert.throws(
      () =>
        encodeGnosticDocument({ swagger: '2.0', paths: { '/a': { get: { parameters: [{ name: 'c', in: 'cookie', type: 'string' }] } } } }),
      /unknown parameter location "cookie"/,
    );
  });
});

/** A CRD whose v1 keeps unknown fields at the root and whose v2 has what swagger 2.0 cannot say. */
const CMP_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'cmps.cmp.example.com' },
  spec: {
    group: 'cmp.example.com',
    scope: 'Namespaced',
    names: { plural: 'cmps', singular: 'cmp', kind: 'Cmp' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      {
        name: 'v2',
        served: true,
        storage: false,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'Cmp v2',
            properties: {
              spec: {
                type: 'object',
                required: ['nul', 'one'],
                properties: {
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
                  arr: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
                  nul: { type: 'string', nullable: true },
                  one: { type: 'string', anyOf: [{ maxLength: 3 }, { minLength: 10 }] },
                  ios: { 'x-kubernetes-int-or-string': true },
                  plain: { type: 'array', items: { type: 'integer' } },
                  bare: { type: 'object' },
                },
              },
            },
          },
        },
      },
    ],
  },
} as unknown as CustomResourceDefinition;

describe('the OpenAPI v2 document of custom resources', () => {
  const domain = newApiDomain('k8s.io');
  const table = newResourceTable(domain, coreResources);
  const served = customResourceServing(CMP_CRD, domain);
  table.setCustom('cmps.cmp.example.com', served.defs);
  const api = newOpenApiV2(table, { ...definitions, ...served.definitions });
  const doc: Json = JSON.parse(api.json());
  const gvk = (version: string) => [{ group: 'cmp.example.com', kind: 'Cmp', version }];

  it('publishes a root that keeps unknown fields as a bare object with its group-version-kind (kubectl then accepts any field)', () => {
    assert.deepEqual(doc.definitions['com.example.cmp.v1.Cmp'], { type: 'object', 'x-kubernetes-group-version-kind': gvk('v1') });
  });

  it('leaves out junctors, types of nullable and unknown-keeping nodes, their items and properties, and nullable requirements', () => {
    const v2 = doc.definitions['com.example.cmp.v2.Cmp'];
    assert.equal(v2.description, 'Cmp v2');
    assert.deepEqual(v2['x-kubernetes-group-version-kind'], gvk('v2'));
    assert.deepEqual(Object.keys(v2.properties).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(v2.properties.spec, {
      type: 'object',
      required: ['one'],
      properties: {
        free: { 'x-kubernetes-preserve-unknown-fields': true },
        arr: { 'x-kubernetes-preserve-unknown-fields': true },
        nul: {},
        one: { type: 'string' },
        ios: { 'x-kubernetes-int-or-string': true },
        plain: { type: 'array', items: { type: 'integer' } },
        bare: { type: 'object' },
      },
    });
  });

  it('still encodes as protobuf (gnostic has no nullable, anyOf, oneOf or not)', () => {
    const msg = decode(api.protobuf());
    assert.ok(byName(msg.definitions.additional_properties, 'com.example.cmp.v2.Cmp'));
  });

  it('keeps the schema whole where decoding and the v3 documents read it', () => {
    const spec = served.definitions['com.example.cmp.v2.Cmp'].properties!.spec;
    assert.ok(spec.properties!.nul.nullable);
    assert.ok(spec.properties!.one.anyOf);
    assert.deepEqual(spec.required, ['nul', 'one']);
  });
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function getOpenApiV2(s: TestServer, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}/openapi/v2`, { ca: s.ca, headers: { Authorization: `Bearer ${s.token}`, ...headers } }, async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
    });
    req.on('error', reject);
    req.end();
  });
}

const etagOf = (bytes: Buffer) => `"${createHash('sha512').update(bytes).digest('hex').toUpperCase()}"`;

describe('GET /openapi/v2 and kubectl', () => {
  let s: TestServer;
  let kubectl: ReturnType<typeof newKubectl>;
  before(async () => {
    s = await startTestServer();
    kubectl = newKubectl(s.kubeconfig);
  });
  after(() => s.stop());

  it('answers JSON by default, with the ETag of its bytes', async () => {
    for (const accept of ['application/json', '*/*']) {
      const r = await getOpenApiV2(s, { Accept: accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers.etag, etagOf(r.body));
      assert.equal(r.headers.vary, 'Accept');
      const doc = JSON.parse(r.body.toString());
      assert.equal(doc.swagger, '2.0');
      assert.ok(doc.paths['/api/v1/namespaces/{namespace}/configmaps']);
    }
  });

  it('answers protobuf when Accept ranks it first (either spelling of the media type)', async () => {
    const json = JSON.parse((await getOpenApiV2(s, { Accept: 'application/json' })).body.toString());
    for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', `application/json;q=0.5, ${OPENAPI_V2_PROTOBUF}`]) {
      const r = await getOpenApiV2(s, { Accept: accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
      assert.equal(r.headers.etag, etagOf(r.body));
      assert.deepEqual(toJson(Document, decode(r.body)), json);
    }
  });

  it('answers 304 when If-None-Match names the current ETag', async () => {
    const first = await getOpenApiV2(s, { Accept: OPENAPI_V2_PROTOBUF });
    const again = await getOpenApiV2(s, { Accept: OPENAPI_V2_PROTOBUF, 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    const stale = await getOpenApiV2(s, { Accept: OPENAPI_V2_PROTOBUF, 'If-None-Match': '"0123"' });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.body, first.body);
  });

  it('lets kubectl create -f validate (downloading /openapi/v2) and create', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: validated\ndata:\n  key: value\n';
    const r = await kubectl.run(['create', '-f', '-', '-v=6'], { input: manifest });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'configmap/validated created');
    // /usr/bin/kubectl runs the kubectl of the server's minor version (1.28), which loads /openapi/v2
    // before anything else when validating.
    assert.match(r.stderr, /GET https:\/\/\S+\/openapi\/v2\?\S* 200 OK/);
    assert.match(r.stderr, /POST \S+\/api\/v1\/namespaces\/default\/configmaps\?\S*fieldValidation=Strict\S* 201 Created/);
    const stored = await s.client.get('/api/v1/namespaces/default/configmaps/validated');
    assert.deepEqual(stored.body.data, { key: 'value' });
  });

  it('lets kubectl create -f of an unknown field fail with the server strict decoding error', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-field\nbogus: 1\n';
    const r = await kubectl.run(['create', '-f', '-'], { input: manifest });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'Error from server (BadRequest): error when creating "STDIN": strict decoding error: unknown field "bogus"',
    );
    assert.equal((await s.client.get('/api/v1/namespaces/default/configmaps/unknown-field')).status, 404);
  });

  it('lets kubectl explain priorityclass.description: a field named description is a field', async () => {
    const out = await kubectl.ok(['explain', 'priorityclass.description']);
    assert.match(out, /\nKIND:\s+PriorityClass\n/);
    assert.match(out, /FIELD:\s+description <string>/);
  });

  it('lets kubectl explain configmap print the fields', async () => {
    const out = await kubectl.ok(['explain', 'configmap']);
    assert.match(out, /^KIND:\s+ConfigMap\nVERSION:\s+v1\n/);
    for (const field of [
      'apiVersion\t<string>',
      'binaryData\t<map[string]string>',
      'data\t<map[string]string>',
      'immutable\t<boolean>',
      'kind\t<string>',
      'metadata\t<ObjectMeta>',
    ]) {
      assert.ok(out.includes(`  ${field}\n`), `${field} in:\n${out}`);
    }
  });
});
