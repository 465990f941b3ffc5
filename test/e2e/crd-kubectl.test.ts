/**
 * End to end (issue 19) with /usr/bin/kubectl, in both domains: apply a CustomResourceDefinition, wait
 * for Established, apply custom objects (kubectl's client-side validation reads the OpenAPI), get them
 * with the printer columns and by short name and category, explain the kind, apply server-side, then
 * delete the CRD and see its objects gone.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';

function crdYaml(prefix: string, domain: string): string {
  return `apiVersion: apiextensions.${domain}/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: Spec
      type: string
      description: The cron spec defining the interval a CronJob is run
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        description: CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What to run and when.
            properties:
              cronSpec:
                type: string
                description: The schedule, in cron format.
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                default: 1
              ports:
                type: array
                ${prefix}list-type: map
                ${prefix}list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
`;
}

const CRONTAB = (name: string, replicas: number) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "*/5 * * * *"
  image: my-awesome-cron-image
  replicas: ${replicas}
`;

for (const domain of ['orch.io', 'k8s.io']) {
  const prefix = domain === 'k8s.io' ? 'x-kubernetes-' : 'x-orch-';
  describe(`custom resources with kubectl (${domain})`, () => {
    let s: TestServer;
    let kubectl: ReturnType<typeof newKubectl>;

    before(async () => {
      s = await startTestServer({ args: [`--api-domain=${domain}`] });
      kubectl = newKubectl(s.kubeconfig);
    });
    after(() => s?.stop());

    it('applies a CRD and waits for Established', async () => {
      const out = await kubectl.ok(['apply', '-f', '-'], { input: crdYaml(prefix, domain) });
      assert.match(out, /customresourcedefinition.apiextensions.* created/);
      await kubectl.ok(['wait', '--for=condition=Established', '--timeout=10s', 'crd/crontabs.stable.example.com']);
    });

    it('applies custom objects and gets them with the printer columns, by short name and category', async () => {
      assert.match(await kubectl.ok(['apply', '-f', '-'], { input: CRONTAB('my-cron', 2) }), /crontab.stable.example.com\/my-cron created/);
      const table = await kubectl.ok(['get', 'crontabs']);
      const [header, row] = table.trim().split('\n');
      // kubectl asks for meta.k8s.io Tables, which both domains answer: the CRD's printer columns.
      assert.match(header, /^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
      assert.match(row, /^my-cron\s+\*\/5 \* \* \* \*\s+2\s+\d+s$/);
      assert.match(await kubectl.ok(['get', 'ct', 'my-cron', '-o', 'jsonpath={.spec.image}']), /^my-awesome-cron-image$/);
      assert.match(await kubectl.ok(['get', 'all']), /crontab.stable.example.com\/my-cron/);
      // Client-side validation reads the schema: an unknown field fails before it reaches the server.
      const bad = await kubectl.run(['apply', '-f', '-'], { input: `${CRONTAB('bad', 1)}  colour: red\n` });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /unknown field "spec.colour"/);
      const invalid = await kubectl.run(['apply', '-f', '-'], { input: CRONTAB('zero', 0) });
      assert.notEqual(invalid.code, 0);
      assert.match(invalid.stderr, /spec.replicas in body should be greater than or equal to 1/);
    });

    it('explains the kind from its schema', async () => {
      const out = await kubectl.ok(['explain', 'crontab.spec']);
      assert.match(out, /KIND:\s+CronTab/);
      assert.match(out, /What to run and when\./);
      assert.match(out, /cronSpec\s+<string>/);
      assert.match(out, /The schedule, in cron format\./);
    });

    it('applies server-side', async () => {
      const out = await kubectl.ok(['apply', '--server-side', '--field-manager=e2e', '-f', '-'], {
        input: `${CRONTAB('ssa-cron', 3)}  ports:\n  - name: http\n    port: 80\n`,
      });
      assert.match(out, /crontab.stable.example.com\/ssa-cron serverside-applied/);
      const again = await kubectl.ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], {
        input: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ssa-cron\nspec:\n  ports:\n  - name: https\n    port: 443\n`,
      });
      assert.match(again, /serverside-applied/);
      const ports = await kubectl.ok(['get', 'crontab', 'ssa-cron', '-o', 'jsonpath={.spec.ports[*].name}']);
      assert.equal(ports, 'http https');
    });

    it('deletes the CRD and its objects with it', async () => {
      await kubectl.ok(['delete', 'crd', 'crontabs.stable.example.com', '--timeout=20s']);
      const gone = await kubectl.run(['get', 'crontabs']);
      assert.notEqual(gone.code, 0);
      // kubectl's cached discovery may still name the resource; the server no longer serves it.
      assert.match(gone.stderr, /the server doesn't have a resource type "crontabs"|the server could not find the requested resource/);
      const crds = await kubectl.ok(['get', 'crds', '-o', 'name']);
      assert.equal(crds.trim(), '');
    });
  });
}
