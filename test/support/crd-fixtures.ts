/** CustomResourceDefinitions the apiextensions tests share, and a wait for one to be served. */
import assert from 'node:assert/strict';
import type { TestClient } from './http-client.js';
import { eventually } from './eventually.js';

export const CRDS = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';

/** The CronTab of Kubernetes' documentation: stable.example.com/v1, namespaced, columns, status and scale. */
export function cronTabCrd(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['cronSpec'],
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string', maxLength: 64 },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                    mode: { type: 'string', enum: ['fast', 'slow'] },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    ports: {
                      type: 'array',
                      'x-orch-list-type': 'map',
                      'x-orch-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                    },
                    free: { type: 'object', 'x-orch-preserve-unknown-fields': true },
                    size: { 'x-orch-int-or-string': true },
                  },
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' }, phase: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.labelSelector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
      ...overrides,
    },
  };
}

/** Creates a CRD and waits until its first version's resource answers a list. */
export async function createServedCrd(c: TestClient, crd: Record<string, any>): Promise<Record<string, any>> {
  const r = await c.post(CRDS, crd);
  assert.equal(r.status, 201, r.text);
  const { group, names, versions } = crd.spec;
  const served = versions.find((v: { served: boolean }) => v.served).name;
  const path = `/apis/${group}/${served}/${crd.spec.scope === 'Namespaced' ? 'namespaces/default/' : ''}${names.plural}`;
  await eventually(`${crd.metadata.name} served`, async () => (await c.get(path)).status === 200, 10_000);
  return r.body;
}
