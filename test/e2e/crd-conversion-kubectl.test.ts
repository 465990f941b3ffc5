/**
 * End to end (issue 19) with /usr/bin/kubectl: a CRD whose v1 stores `spec.size` and whose v2 calls it
 * `spec.replicas`, converted by a real HTTPS webhook (own CA, `caBundle`). kubectl applies objects in
 * one version and reads them in the other (`kubectl get widgets.v2.<group>`), printer columns included.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';
import { type Review, startWebhookServer, type WebhookServer } from '../support/webhook-server.js';

const GROUP = 'conv.example.com';

interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: { apiVersion: string; spec?: Record<string, unknown> }[];
}

function crdYaml(caBundle: string, url: string): string {
  const version = (name: string, field: string, storage: boolean) => `  - name: ${name}
    served: true
    storage: ${storage}
    additionalPrinterColumns:
    - name: ${field}
      type: integer
      jsonPath: .spec.${field}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ${field}: {type: integer}
`;
  return `apiVersion: apiextensions.orch.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${GROUP}
spec:
  group: ${GROUP}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: ${url}
        caBundle: ${caBundle}
  versions:
${version('v1', 'size', true)}${version('v2', 'replicas', false)}`;
}

describe('custom resource conversion webhook with kubectl', () => {
  let s: TestServer;
  let hook: WebhookServer;
  let kubectl: ReturnType<typeof newKubectl>;

  before(async () => {
    s = await startTestServer();
    kubectl = newKubectl(s.kubeconfig);
    hook = await startWebhookServer((review: Review) => {
      const request = review.request as unknown as ConversionRequest;
      const convertedObjects = request.objects.map((o) => {
        const { size, replicas, ...rest } = o.spec ?? {};
        const n = size ?? replicas;
        const spec = request.desiredAPIVersion.endsWith('/v2') ? { ...rest, replicas: n } : { ...rest, size: n };
        return { ...o, apiVersion: request.desiredAPIVersion, spec };
      });
      const response = { uid: request.uid, convertedObjects, result: { status: 'Success' } };
      return { raw: JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response }) };
    });
  });
  after(async () => {
    await s?.stop();
    await hook?.close();
  });

  it('applies in v1, reads in v2; applies in v2, reads in v1', async () => {
    await kubectl.ok(['apply', '-f', '-'], { input: crdYaml(hook.caBundle, hook.url('/convert')) });
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=10s', `crd/widgets.${GROUP}`]);

    const v1 = `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: small\nspec:\n  size: 3\n`;
    assert.match(await kubectl.ok(['apply', '-f', '-'], { input: v1 }), /widget.conv.example.com\/small created/);
    assert.equal(
      await kubectl.ok(['get', `widgets.v2.${GROUP}`, 'small', '-o', 'jsonpath={.apiVersion} {.spec.replicas}']),
      `${GROUP}/v2 3`,
    );
    const [header, row] = (await kubectl.ok(['get', `widgets.v2.${GROUP}`])).trim().split('\n');
    assert.match(header, /^NAME\s+REPLICAS$/);
    assert.match(row, /^small\s+3$/);

    const v2 = `apiVersion: ${GROUP}/v2\nkind: Widget\nmetadata:\n  name: large\nspec:\n  replicas: 9\n`;
    assert.match(await kubectl.ok(['apply', '-f', '-'], { input: v2 }), /widget.conv.example.com\/large created/);
    assert.equal(await kubectl.ok(['get', `widgets.v1.${GROUP}`, 'large', '-o', 'jsonpath={.spec.size}']), '9');
    assert.match(
      await kubectl.ok(['apply', '--server-side', '--force-conflicts', '--field-manager=e2e', '-f', '-'], {
        input: v2.replace('replicas: 9', 'replicas: 11'),
      }),
      /serverside-applied/,
    );
    assert.equal(await kubectl.ok(['get', `widgets.v1.${GROUP}`, 'large', '-o', 'jsonpath={.spec.size}']), '11');
  });
});
