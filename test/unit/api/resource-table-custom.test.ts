/** The resource table's custom entries: served at once, listed after the built-in groups, versions by Kubernetes' priority. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareKubeVersions, newResourceTable, resourceDef } from '../../../apiserver/api/resource-table.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import type { ResourceDeclaration } from '../../../apiserver/api/resource.js';

const domain = newApiDomain();
const decl = (kubernetesGroup: string, version: string, plural: string): ResourceDeclaration => ({
  kubernetesGroup,
  version,
  kind: plural,
  plural,
  singular: plural,
  namespaced: true,
  schema: 'core.v1.ConfigMap',
  nameRule: 'dns-subdomain',
});

describe('resource table custom entries', () => {
  it('sorts versions as Kubernetes does', () => {
    assert.deepEqual(['v1alpha1', 'foo', 'v2beta1', 'v1', 'v11alpha2', 'v2', 'v1beta2', 'bar'].sort(compareKubeVersions), [
      'v2',
      'v1',
      'v2beta1',
      'v1beta2',
      'v11alpha2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
  });

  it('serves custom resources after the built-in groups until they are taken away', () => {
    const table = newResourceTable(domain, [decl('', 'v1', 'configmaps'), decl('apps', 'v1', 'deployments')]);
    table.setCustom('b.zeta.example.com', [resourceDef(domain, decl('zeta.example.com', 'v1beta1', 'bs'))]);
    table.setCustom('a.alpha.example.com', [
      resourceDef(domain, decl('alpha.example.com', 'v1beta1', 'as')),
      resourceDef(domain, decl('alpha.example.com', 'v1', 'as')),
    ]);
    assert.deepEqual(
      table.groups().map((g) => [g.group, g.versions.join(','), g.preferredVersion]),
      [
        ['', 'v1', 'v1'],
        ['apps', 'v1', 'v1'],
        ['alpha.example.com', 'v1,v1beta1', 'v1'],
        ['zeta.example.com', 'v1beta1', 'v1beta1'],
      ],
    );
    assert.equal(table.lookup('alpha.example.com', 'v1', 'as')?.version, 'v1');
    table.setCustom('a.alpha.example.com', []);
    assert.equal(table.lookup('alpha.example.com', 'v1', 'as'), undefined);
    assert.deepEqual(
      table.groups().map((g) => g.group),
      ['', 'apps', 'zeta.example.com'],
    );
  });
});
