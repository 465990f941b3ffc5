/**
 * Duplicate keys of YAML bodies, worded as Kubernetes words them (sigs.k8s.io/yaml's strict
 * conversion, yaml.v2: `line 9: key "foo" already set in map`): the bodies of Kubernetes'
 * test/e2e/apimachinery/field_validation.go (a custom resource preserving unknown fields) and of
 * test/integration/apiserver/field_validation_test.go (a Deployment), with Strict (400) and Warn (warnings).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { createServedCrd } from '../../support/crd-fixtures.js';

const APPLY = 'application/apply-patch+yaml';
const NOXUS = '/apis/mygroup.example.com/v1beta1/noxus';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

/** field_validation.go's CRD: spec preserves unknown fields, beside a few it declares. */
function noxuCrd(): Record<string, any> {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `noxus.mygroup.example.com` },
    spec: {
      group: 'mygroup.example.com',
      scope: 'Cluster',
      names: { plural: 'noxus', singular: 'nonenglishnoxu', kind: 'WishIHadChosenNoxu', listKind: 'NoxuItemList' },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-orch-preserve-unknown-fields': true,
                  properties: {
                    foo: { type: 'string' },
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    ports: {
                      type: 'array',
                      'x-orch-list-map-keys': ['containerPort', 'protocol'],
                      'x-orch-list-type': 'map',
                      items: {
                        type: 'object',
                        required: ['containerPort', 'protocol'],
                        properties: {
                          containerPort: { type: 'integer', format: 'int32' },
                          hostIP: { type: 'string' },
                          hostPort: { type: 'integer', format: 'int32' },
                          name: { type: 'string' },
                          protocol: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** field_validation.go's body ("should detect duplicates in a CR when preserving unknown fields"). */
const crBody = (name: string) => `
apiVersion: mygroup.example.com/v1beta1
kind: WishIHadChosenNoxu
metadata:
  name: ${name}
spec:
  unknown: uk1
  foo: foo1
  foo: foo2
  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;

/** field_validation_test.go's invalidBodyYAML. */
const deploymentYaml = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: ${name}
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

/** field_validation_test.go's applyInvalidBody: JSON, sent as YAML. */
const deploymentApply = (name: string) => `{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "${name}",
			"labels": {"app": "nginx"}
		},
		"spec": {
			"paused": false,
			"paused": true,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"imagePullPolicy": "Never",
						"imagePullPolicy": "Always"
					}]
				}
			}
		}
	}`;

/** The warnings of a response, in order. */
function warnings(headers: Record<string, unknown>): string[] {
  const h = headers.warning;
  if (h === undefined) return [];
  return [...String(h).matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

describe('field validation of YAML duplicates', () => {
  let s: TestServer;
  let c: TestClient;

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, noxuCrd());
  });
  after(() => s?.stop());

  it('refuses an apply of a CR preserving unknown fields with a duplicate, in yaml.v2 words (conformance)', async () => {
    const r = await c.request('PATCH', `${NOXUS}/mytest?fieldManager=field_validation_mgr&fieldValidation=Strict`, {
      raw: crBody('mytest'),
      contentType: APPLY,
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      r.body.message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 9: key "foo" already set in map',
    );
    // What the conformance test looks for in the raw response.
    assert.ok(r.text.includes('line 9: key \\"foo\\" already set in map'), r.text);
    assert.equal((await c.get(`${NOXUS}/mytest`)).status, 404);
  });

  it('applies the CR with a warning under Warn (the default), the last value winning', async () => {
    const r = await c.request('PATCH', `${NOXUS}/warned?fieldManager=field_validation_mgr`, { raw: crBody('warned'), contentType: APPLY });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r.headers), ['line 9: key "foo" already set in map']);
    assert.equal(r.body.spec.foo, 'foo2');
    assert.equal(r.body.spec.unknown, 'uk1');
  });

  it('words the CR body of a create and an update the same way', async () => {
    const strict = await c.request('POST', `${NOXUS}?fieldValidation=Strict`, { raw: crBody('created'), contentType: 'application/yaml' });
    assert.equal(strict.status, 400, strict.text);
    assert.equal(strict.body.message, 'strict decoding error: yaml: unmarshal errors:\n  line 9: key "foo" already set in map');
    const warned = await c.request('POST', NOXUS, { raw: crBody('created'), contentType: 'application/yaml' });
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warnings(warned.headers), ['line 9: key "foo" already set in map']);
    const update = `${crBody('created')}\n  hostPort: 1\n  hostPort: 2`.replace(
      'metadata:\n',
      `metadata:\n  resourceVersion: "${warned.body.metadata.resourceVersion}"\n`,
    );
    const put = await c.request('PUT', `${NOXUS}/created?fieldValidation=Strict`, { raw: update, contentType: 'application/yaml' });
    assert.equal(put.status, 400, put.text);
    assert.equal(
      put.body.message,
      'strict decoding error: yaml: unmarshal errors:\n  line 10: key "foo" already set in map\n  line 17: key "hostPort" already set in map',
    );
  });

  it('refuses or warns of duplicates in a Deployment created from YAML, before its unknown fields', async () => {
    const lines = [
      'line 5: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "paused" already set in map',
      'line 28: key "imagePullPolicy" already set in map',
    ];
    const strict = await c.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, {
      raw: deploymentYaml('strict'),
      contentType: 'application/yaml',
    });
    assert.equal(strict.status, 400, strict.text);
    assert.ok(
      strict.body.message.startsWith(`strict decoding error: yaml: unmarshal errors:\n  ${lines.join('\n  ')}, unknown field "`),
      strict.text,
    );
    for (const f of ['metadata.unknownMeta', 'spec.template.spec.containers[0].unknownNested', 'spec.unknown1', 'spec.unknownDupe']) {
      assert.ok(strict.body.message.includes(`unknown field "${f}"`), f);
    }
    const warned = await c.request('POST', DEPLOYMENTS, { raw: deploymentYaml('warned'), contentType: 'application/yaml' });
    assert.equal(warned.status, 201, warned.text);
    const w = warnings(warned.headers);
    assert.deepEqual(w.slice(0, 4), lines);
    assert.deepEqual(w.slice(4).sort(), [
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });

  it("refuses or warns of duplicates in a Deployment's apply, JSON sent as YAML", async () => {
    const strict = await c.request('PATCH', `${DEPLOYMENTS}/apply-strict?fieldManager=mgr&fieldValidation=Strict`, {
      raw: deploymentApply('apply-strict'),
      contentType: APPLY,
    });
    assert.equal(strict.status, 400, strict.text);
    assert.equal(
      strict.body.message,
      `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:
  line 10: key "paused" already set in map
  line 27: key "imagePullPolicy" already set in map`,
    );
    const warned = await c.request('PATCH', `${DEPLOYMENTS}/apply-warn?fieldManager=mgr&fieldValidation=Warn`, {
      raw: deploymentApply('apply-warn'),
      contentType: APPLY,
    });
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warnings(warned.headers), [
      'line 10: key "paused" already set in map',
      'line 27: key "imagePullPolicy" already set in map',
    ]);
    // A JSON body keeps JSON's words.
    const json = await c.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, {
      raw: deploymentApply('json').replace('"nginx:latest",', '"nginx:latest", "image": "x",'),
      contentType: 'application/json',
    });
    assert.equal(json.status, 400, json.text);
    assert.equal(
      json.body.message,
      'strict decoding error: duplicate field "spec.paused", duplicate field "spec.template.spec.containers[0].image", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    );
  });
});
