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
  });
}
