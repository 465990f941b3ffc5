/** CRD validation without a server: Kubernetes 1.28's rules and messages, the domain's extension names. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateCrd, validateCrdUpdate } from '../../../../apiserver/registry/apiextensions/crd/validation.js';
import { errorMessage } from '../../../../apiserver/api/field-errors.js';
import type { CustomResourceDefinition } from '../../../../apiserver/api/generated/types.js';

function crd(schema: Record<string, unknown>, spec: Record<string, unknown> = {}): CustomResourceDefinition {
  return {
    metadata: { name: 'things.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema as never } }],
      ...spec,
    },
  } as CustomResourceDefinition;
}

const messages = (c: CustomResourceDefinition, prefix = 'x-orch-') => validateCrd(c, prefix).map(errorMessage);
const ROOT = 'spec.versions[0].schema.openAPIV3Schema';

describe('CustomResourceDefinition validation', () => {
  it('accepts a structural schema', () => {
    assert.deepEqual(
      messages(crd({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } })),
      [],
    );
  });

  it('requires types, an object root, items for arrays; forbids additionalProperties beside properties', () => {
    const m = messages(
      crd({
        type: 'object',
        properties: {
          a: {},
          b: { type: 'array' },
          c: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: { type: 'string' } },
        },
      }),
    );
    assert.ok(m.includes(`${ROOT}.properties[a].type: Required value: must not be empty for specified object fields`), m.join('\n'));
    assert.ok(m.includes(`${ROOT}.properties[b].items: Required value: must be specified`), m.join('\n'));
    assert.ok(
      m.includes(`${ROOT}.properties[c].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`),
      m.join('\n'),
    );
    assert.deepEqual(messages(crd({ type: 'string' })), [`${ROOT}.type: Invalid value: "string": must be object at the root`]);
  });

  it('names extensions by the domain: x-orch-… or x-kubernetes-…', () => {
    const list = { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map' } } };
    assert.ok(
      messages(crd(list), 'x-kubernetes-').some((e) =>
        e.includes('x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map'),
      ),
    );
    const preserve = { type: 'object', 'x-orch-preserve-unknown-fields': false };
    assert.deepEqual(messages(crd(preserve)), [`${ROOT}.x-orch-preserve-unknown-fields: Invalid value: false: must be true or undefined`]);
  });

  it('limits metadata at the root to name and generateName', () => {
    const m = messages(crd({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }));
    assert.deepEqual(m, [
      `${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
  });

  it('checks the name, group, scope, names and versions', () => {
    const c = crd({ type: 'object' }, { group: 'nodot', scope: '', names: { plural: 'Things', kind: 'Thing', listKind: 'Thing' } });
    c.spec.versions.push({ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } });
    const m = messages(c);
    for (const want of [
      'metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group',
      'spec.group: Invalid value: "nodot": should be a domain with at least one dot',
      'spec.scope: Required value',
      'spec.names.listKind: Invalid value: "Thing": kind and listKind may not be the same or parsing become ambiguous',
      'spec.names.singular: Required value',
    ]) {
      assert.ok(m.includes(want), `${want}\n--\n${m.join('\n')}`);
    }
    assert.ok(m.some((e) => e.startsWith('spec.versions: Invalid value') && e.endsWith('must contain unique version names')));
    assert.ok(m.some((e) => e.endsWith('must have exactly one version marked as storage version')));
    assert.ok(m.some((e) => e.startsWith('spec.names.plural: Invalid value: "Things"')));
  });

  it('checks printer columns, scale paths and webhook conversion', () => {
    const c = crd({ type: 'object' });
    c.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'float', jsonPath: 'spec.x' }];
    c.spec.versions[0].subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.status.replicas' } };
    c.spec.conversion = { strategy: 'Webhook' };
    const m = messages(c);
    for (const want of [
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
      'spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: "spec.x": must be a simple json path starting with .',
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.conversion.webhook.clientConfig: Required value: required when strategy is set to Webhook',
    ]) {
      assert.ok(m.includes(want), `${want}\n--\n${m.join('\n')}`);
    }
  });

  it('keeps the scope on update and refuses preserveUnknownFields on create only', () => {
    const old = crd({ type: 'object' }, { preserveUnknownFields: true });
    assert.ok(messages(old).some((e) => e.startsWith('spec.preserveUnknownFields: Invalid value: true: cannot set to true')));
    const next = crd({ type: 'object' }, { preserveUnknownFields: true, scope: 'Cluster' });
    assert.deepEqual(validateCrdUpdate(next, old, 'x-orch-').map(errorMessage), [
      'spec.scope: Invalid value: "Cluster": field is immutable',
    ]);
  });

  it('refuses a schema nested deeper than 64 levels without recursing without end', () => {
    let s: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) s = { type: 'object', properties: { n: s } };
    assert.ok(messages(crd(s)).some((e) => e.includes('must not be nested more than 64 levels')));
  });
  it('checks the messageExpression and fieldPath of a rule as kube-apiserver 1.28.7 does', () => {
    const at = `${ROOT}.properties[spec].x-orch-validations[0]`;
    const withRule = (rule: Record<string, unknown>) =>
      messages(
        crd({
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: { replicas: { type: 'integer' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
              'x-orch-validations': [{ rule: 'self.replicas > 1', ...rule }],
            },
          },
        }),
      );
    for (const fieldPath of ['.replicas', "['replicas']", '.labels.x', ".labels['a.b']"])
      assert.deepEqual(withRule({ fieldPath }), [], fieldPath);
    assert.deepEqual(withRule({ fieldPath: '.nope', messageExpression: ' ' }), [
      `${at}.messageExpression: Required value: messageExpression must be non-empty if specified`,
      `${at}.fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ]);
    assert.deepEqual(withRule({ fieldPath: '  ' }), [
      `${at}.fieldPath: Invalid value: "  ": fieldPath must be non-empty if specified`,
      `${at}.fieldPath: Invalid value: "  ": fieldPath must be a valid path`,
    ]);
    assert.deepEqual(withRule({ fieldPath: 'replicas' }), [`${at}.fieldPath: Invalid value: "replicas": fieldPath must be a valid path`]);
  });
});
