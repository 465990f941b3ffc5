import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../../apiserver/api/generated/types.js';
import { DEFAULT_PREFERRED_ADDRESS_TYPES, podAgentLocation } from '../../../../apiserver/registry/core/connect-location.js';

const pod = { metadata: { name: 'p', namespace: 'n' }, spec: { nodeName: 'n1', containers: [{ name: 'c' }] } } as unknown as Pod;
const node = { metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } } as unknown as Node;
const opts = { port: 10250, preferredAddressTypes: DEFAULT_PREFERRED_ADDRESS_TYPES };

test('exec streams: every options boolean spelling (stdin=True from the Python client) reaches the node agent as 1', () => {
  const l = podAgentLocation('exec', pod, node, new URLSearchParams('command=ls&stdin=True&stdout=T&stderr=False&tty=0'), opts);
  assert.deepEqual(
    [...(l.query?.entries() ?? [])],
    [
      ['command', 'ls'],
      ['input', '1'],
      ['output', '1'],
    ],
  );
});

test('log booleans are decoded and written again only when set', () => {
  const l = podAgentLocation('log', pod, node, new URLSearchParams('follow=True&previous=False&timestamps=1&tailLines=3'), opts);
  assert.deepEqual(
    [...(l.query?.entries() ?? [])],
    [
      ['follow', 'true'],
      ['timestamps', 'true'],
      ['tailLines', '3'],
    ],
  );
});
