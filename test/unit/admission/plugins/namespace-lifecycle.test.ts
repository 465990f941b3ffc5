import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { ObjectReader, ReadOptions } from '../../../../apiserver/admission/interfaces.js';
import { newNamespaceLifecycle } from '../../../../apiserver/admission/plugins/namespace-lifecycle.js';
import { NAMESPACES, typedReader } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

const namespace = (name: string, phase = 'Active'): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  status: { phase },
});
const cm = (ns: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns } });

/** A reader whose watch cache (cached reads) and store (consistent reads) hold different objects. */
function splitReader(cache: Objects, store: Objects, reads: string[]): ObjectReader {
  return typedReader({
    get: (r, ns, name, opts: ReadOptions = {}) => {
      reads.push(opts.cached ? 'cache' : 'store');
      return (opts.cached ? cache : store).reader.get(r, ns, name);
    },
    list: (r, ns, opts: ReadOptions = {}) => (opts.cached ? cache : store).reader.list(r, ns),
  });
}

test('NamespaceLifecycle reads the namespace from the watch cache, and from the store when the cache misses it', async () => {
  const cache = new Objects();
  const store = new Objects();
  const reads: string[] = [];
  cache.put(NAMESPACES, namespace('cached'));
  store.put(NAMESPACES, namespace('cached'));
  store.put(NAMESPACES, namespace('new'));
  const p = newNamespaceLifecycle(newEnv(new Objects(), { reader: splitReader(cache, store, reads) }), undefined);
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'cached', object: cm('cached') }));
  assert.deepEqual(reads.splice(0), ['cache']);
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'new', object: cm('new') }));
  assert.deepEqual(reads.splice(0), ['cache', 'store']);
  const err = await rejection(p.validate!(attrs({ resource: 'configmaps', namespace: 'missing', object: cm('missing') })));
  assert.equal(err.code, 404);
});

test('NamespaceLifecycle: after admitting a namespace deletion, creates in it read the store (a stale cache cannot admit them)', async () => {
  const cache = new Objects();
  const store = new Objects();
  const reads: string[] = [];
  cache.put(NAMESPACES, namespace('doomed'));
  store.put(NAMESPACES, namespace('doomed', 'Terminating'));
  const p = newNamespaceLifecycle(newEnv(new Objects(), { reader: splitReader(cache, store, reads) }), undefined);
  await p.validate!(attrs({ operation: 'DELETE', resource: 'namespaces', name: 'doomed', oldObject: namespace('doomed') }));
  const err = await rejection(p.validate!(attrs({ resource: 'configmaps', namespace: 'doomed', object: cm('doomed') })));
  assert.equal(err.code, 403);
  assert.match(err.status.message ?? '', /because it is being terminated/);
  assert.deepEqual(reads, ['store']);
});
