import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flowSchemaStrategy } from '../../../../apiserver/registry/flowcontrol/flow-schema.js';
import { priorityLevelStrategy } from '../../../../apiserver/registry/flowcontrol/priority-level.js';
import { create, createErrors } from '../helpers.js';

const fc = (kind: string, name: string, spec: unknown) => ({
  apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
  kind,
  metadata: { name },
  spec: structuredClone(spec),
});

test('FlowSchema: precedence defaults to 1000; rules, subjects and URLs are validated', () => {
  const ok = create(flowSchemaStrategy, fc('FlowSchema', 'fs', { priorityLevelConfiguration: { name: 'pl' } }) as never);
  assert.deepEqual(ok.errors, []);
  assert.equal((ok.obj.spec as { matchingPrecedence: number }).matchingPrecedence, 1000);
  assert.deepEqual(
    createErrors(
      flowSchemaStrategy,
      fc('FlowSchema', 'fs', {
        matchingPrecedence: 1,
        distinguisherMethod: { type: 'ByPod' },
        priorityLevelConfiguration: { name: '' },
        rules: [
          {
            subjects: [{ kind: 'User', group: { name: 'g' } }],
            nonResourceRules: [{ verbs: ['get', 'fly'], nonResourceURLs: ['/a/*/b'] }],
          },
          { subjects: [], resourceRules: [{ verbs: ['*'], apiGroups: ['*', 'apps'], resources: ['pods'], namespaces: ['Bad'] }] },
        ],
      }) as never,
    ),
    [
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      'spec.distinguisherMethod.type: Unsupported value: {"type":"ByPod"}: supported values: "ByNamespace", "ByUser"',
      'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
      'spec.rules[0].nonResourceRules[0].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a/*/b": wildcard can only do suffix glob matching',
      'spec.rules[1].subjects: Required value: subjects must contain at least one value',
      'spec.rules[1].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other api groups',
      'spec.rules[1].resourceRules[0].namespaces[0]: Invalid value: "Bad": each member of this list must be \'*\' or a DNS-1123 label; ' +
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  );
});

test('PriorityLevelConfiguration: Limited defaults and the queuing rules', () => {
  const ok = create(
    priorityLevelStrategy,
    fc('PriorityLevelConfiguration', 'pl', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }) as never,
  );
  assert.deepEqual(ok.errors, []);
  assert.deepEqual(ok.obj.spec, {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
    },
  });
  assert.deepEqual(
    createErrors(
      priorityLevelStrategy,
      fc('PriorityLevelConfiguration', 'exempt', {
        type: 'Limited',
        limited: { limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 60 } } },
      }) as never,
    ),
    [
      "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 60: required entropy bits of deckSize 128 and handSize 60 should not be greater than 60',
    ],
  );
});
