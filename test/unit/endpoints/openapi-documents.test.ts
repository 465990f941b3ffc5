/** The published OpenAPI documents are valid Swagger 2.0 / OpenAPI 3.0 to an independent validator. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import { allResources } from '../../../apiserver/registry/resources/index.js';
import { definitions as generated } from '../../../apiserver/api/generated/definitions.js';
import { historyDefinitions } from '../../../apiserver/api/history-definitions.js';

/** The server's definitions: Kubernetes' generated ones and orch's own history group's (run-server.ts). */
const definitions = { ...generated, ...historyDefinitions };
import { newOpenApiV2 } from '../../../apiserver/endpoints/openapi-v2.js';
import { newOpenApiV3 } from '../../../apiserver/endpoints/openapi-v3.js';
import { newOpenApiSpecs } from '../../../apiserver/endpoints/openapi-specs.js';

for (const domain of ['orch.io', 'k8s.io']) {
  describe(`OpenAPI documents (${domain})`, () => {
    const table = newResourceTable(newApiDomain(domain), allResources);

    it('v2 validates as Swagger 2.0', async () => {
      const doc = JSON.parse(newOpenApiV2(table, definitions).json());
      await SwaggerParser.validate(doc);
      assert.ok(Object.keys(doc.paths).length > 0);
    });

    it('every v3 group-version document validates as OpenAPI 3.0', async () => {
      const v3 = newOpenApiV3(table, definitions);
      const paths = Object.keys(v3.index().paths as Record<string, unknown>);
      assert.ok(paths.includes('api/v1'));
      for (const path of paths) {
        const doc = JSON.parse(v3.document(path)!);
        await assert.doesNotReject(SwaggerParser.validate(doc), path);
      }
    });

    it('serviceaccounts/token is a POST of authentication/v1 TokenRequest; the reviews are POST only', () => {
      const group = domain === 'k8s.io' ? 'authentication.k8s.io' : 'authentication.orch.io';
      const v2 = JSON.parse(newOpenApiV2(table, definitions).json());
      const token = v2.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'];
      assert.deepEqual(Object.keys(token).sort(), ['parameters', 'post']);
      assert.equal(token.post.parameters[0].schema.$ref, '#/definitions/authentication.v1.TokenRequest');
      assert.deepEqual(token.post['x-kubernetes-group-version-kind'], { group, version: 'v1', kind: 'TokenRequest' });
      assert.deepEqual(Object.keys(v2.paths[`/apis/${group}/v1/tokenreviews`]), ['post']);
      const v3 = JSON.parse(newOpenApiV3(table, definitions).document('api/v1')!);
      assert.ok(v3.components.schemas['authentication.v1.TokenRequest']);
    });

    it('with the revision ledger on, every kind that keeps one has a GET of its history subresource answering an ObjectRevisionList', async () => {
      const group = domain === 'k8s.io' ? 'history.k8s.io' : 'history.orch.io';
      const specs = newOpenApiSpecs(table, definitions, { history: true });
      const v2 = JSON.parse(specs.v2.json());
      await SwaggerParser.validate(structuredClone(v2));
      const history = v2.paths['/api/v1/namespaces/{namespace}/configmaps/{name}/history'];
      assert.deepEqual(Object.keys(history).sort(), ['get', 'parameters']);
      assert.equal(history.get.operationId, 'readCoreV1NamespacedConfigMapHistory');
      assert.equal(history.get.responses['200'].schema.$ref, '#/definitions/history.v1.ObjectRevisionList');
      assert.deepEqual(history.get['x-kubernetes-group-version-kind'], { group, version: 'v1', kind: 'ObjectRevisionList' });
      assert.deepEqual(
        history.get.parameters.map((p: { name: string }) => p.name),
        ['continue', 'limit', 'resourceVersion', 'pretty'],
      );
      assert.equal(v2.definitions['history.v1.ObjectRevisionList'].properties.items.items.$ref, '#/definitions/history.v1.ObjectRevision');
      assert.ok(v2.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/history'], 'every group');
      assert.ok(v2.paths['/api/v1/nodes/{name}/history'], 'cluster-scoped kinds too');
      // Kinds that expire (Events) keep no ledger, and so no history.
      assert.equal(v2.paths['/api/v1/namespaces/{namespace}/events/{name}/history'], undefined);
      const v3 = JSON.parse(specs.v3.document('api/v1')!);
      await SwaggerParser.validate(structuredClone(v3));
      assert.equal(
        v3.paths['/api/v1/namespaces/{namespace}/secrets/{name}/history'].get.responses['200'].content['application/json'].schema.$ref,
        '#/components/schemas/history.v1.ObjectRevisionList',
      );
      assert.ok(v3.components.schemas['history.v1.ObjectRevision']);
      // Off, no history paths.
      const off = JSON.parse(newOpenApiSpecs(table, definitions).v2.json());
      assert.equal(Object.keys(off.paths).filter((p) => p.endsWith('/history')).length, 0);
    });
  });
}
