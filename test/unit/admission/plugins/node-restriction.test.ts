import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { UserInfo } from '../../../../apiserver/api/user-info.js';
import { newNodeRestriction } from '../../../../apiserver/admission/plugins/node-restriction.js';
import { NODES, PODS } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection, type Write } from '../fixture.js';

const NODE1: UserInfo = { name: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] };

function setup() {
  const objects = new Objects();
  objects.put(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'uid-1' } });
  objects.put(PODS, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'mine', namespace: 'ns', uid: 'pod-uid' },
    spec: { nodeName: 'node-1', containers: [] },
  });
  objects.put(PODS, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'theirs', namespace: 'ns', uid: 'other-uid' },
    spec: { nodeName: 'node-2', containers: [] },
  });
  const plugin = newNodeRestriction(newEnv(objects), undefined);
  const admit = (w: Write) => plugin.admit!(attrs({ user: NODE1, ...w }));
  const refused = async (w: Write) => (await rejection(admit(w))).message;
  return { admit, refused };
}

const mirrorPod = (over: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'static',
      namespace: 'ns',
      annotations: { 'orch.io/config.mirror': 'hash' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'uid-1', controller: true }],
      ...over.metadata,
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }], ...over.spec },
  }) as unknown as ApiObject;

test('NodeRestriction leaves everyone but nodes alone, and refuses a node user without a name', async () => {
  const { refused } = setup();
  const plugin = newNodeRestriction(newEnv(), undefined);
  await plugin.admit!(attrs({ resource: 'pods', namespace: 'ns', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } } }));
  const nameless = { name: 'system:node:', groups: ['system:nodes'] };
  assert.match(
    await refused({ resource: 'configmaps', namespace: 'ns', user: nameless, object: mirrorPod() }),
    /could not determine node from user "system:node:"/,
  );
  assert.deepEqual(
    [plugin.handles('CREATE'), plugin.handles('UPDATE'), plugin.handles('DELETE'), plugin.handles('CONNECT')],
    [true, true, true, false],
  );
});

test('NodeRestriction: a node creates only mirror pods bound to and owned by itself, with nothing secret', async () => {
  const { admit, refused } = setup();
  const create = (pod: ApiObject) => ({ resource: 'pods', namespace: 'ns', object: pod });
  await admit(create(mirrorPod()));
  assert.match(await refused(create(mirrorPod({ metadata: { annotations: {} } }))), /can only create mirror pods/);
  assert.match(await refused(create(mirrorPod({ spec: { nodeName: 'node-2' } }))), /can only create pods with spec.nodeName set to itself/);
  assert.match(await refused(create(mirrorPod({ metadata: { ownerReferences: [] } }))), /an owner reference set to itself/);
  const owner = { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'uid-1', controller: true };
  assert.match(await refused(create(mirrorPod({ metadata: { ownerReferences: [owner, owner] } }))), /a single owner reference/);
  assert.match(
    await refused(create(mirrorPod({ metadata: { ownerReferences: [{ ...owner, controller: false }] } }))),
    /a controller owner reference/,
  );
  assert.match(
    await refused(create(mirrorPod({ metadata: { ownerReferences: [{ ...owner, blockOwnerDeletion: true }] } }))),
    /must not set blockOwnerDeletion/,
  );
  assert.match(
    await refused(create(mirrorPod({ metadata: { ownerReferences: [{ ...owner, uid: 'old' }] } }))),
    /node node-1 UID mismatch: expected uid-1 got old/,
  );
  assert.match(
    await refused(create(mirrorPod({ spec: { serviceAccountName: 'sa' } }))),
    /can not create pods that reference a service account/,
  );
  assert.match(await refused(create(mirrorPod({ spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] } }))), /reference secrets/);
  assert.match(await refused(create(mirrorPod({ spec: { imagePullSecrets: [{ name: 'pull' }] } }))), /reference secrets/);
  assert.match(
    await refused(create(mirrorPod({ spec: { containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm' } }] }] } }))),
    /reference configmaps/,
  );
  assert.match(
    await refused(create(mirrorPod({ spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] } }))),
    /reference persistentvolumeclaims/,
  );
  const message = await refused(create(mirrorPod({ spec: { nodeName: 'node-2' } })));
  assert.equal(message, 'pods "static" is forbidden: node "node-1" can only create pods with spec.nodeName set to itself');
});

test('NodeRestriction: a node deletes, evicts and updates the status of its own pods only; other pod writes are refused', async () => {
  const { admit, refused } = setup();
  const pod = (name: string, nodeName: string, labels?: Record<string, string>) =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns', labels },
      spec: { nodeName, containers: [] },
    }) as unknown as ApiObject;
  await admit({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'mine', oldObject: pod('mine', 'node-1') });
  assert.match(
    await refused({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'theirs', oldObject: pod('theirs', 'node-2') }),
    /can only delete pods with spec.nodeName set to itself/,
  );
  assert.match(
    await refused({
      operation: 'UPDATE',
      resource: 'pods',
      namespace: 'ns',
      object: pod('mine', 'node-1'),
      oldObject: pod('mine', 'node-1'),
    }),
    /unexpected operation "UPDATE", node "node-1" can only create and delete mirror pods/,
  );
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'mine' } } as ApiObject;
  await admit({ resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'mine', object: eviction });
  assert.match(
    await refused({ resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'theirs', object: eviction }),
    /node node-1 can only evict pods with spec.nodeName set to itself/,
  );
  assert.equal(
    (await rejection(admit({ resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'gone', object: eviction }))).code,
    404,
  );
  const status = (name: string, node: string, labels?: Record<string, string>, oldLabels?: Record<string, string>) => ({
    operation: 'UPDATE' as const,
    resource: 'pods',
    subresource: 'status',
    namespace: 'ns',
    object: pod(name, node, labels),
    oldObject: pod(name, node, oldLabels),
  });
  await admit(status('mine', 'node-1', { a: '1' }, { a: '1' }));
  assert.match(await refused(status('theirs', 'node-2')), /can only update pod status for pods with spec.nodeName set to itself/);
  assert.match(await refused(status('mine', 'node-1', { a: '2' }, { a: '1' })), /cannot update labels through pod status/);
  assert.match(
    await refused({ resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'mine', object: eviction }),
    /unexpected pod subresource "binding", only 'status' and 'eviction' are allowed/,
  );
});

test('NodeRestriction: a node writes its own Node, without taint changes or restricted labels', async () => {
  const { admit, refused } = setup();
  const node = (name: string, labels: Record<string, string> = {}, taints?: unknown[], configSource?: unknown) =>
    ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints, configSource } }) as unknown as ApiObject;
  const kubeletLabels = {
    'orch.io/hostname': 'h',
    'orch.io/os': 'linux',
    'topology.orch.io/zone': 'z',
    'node.orch.io/instance-type': 'big',
    'kubelet.orch.io/x': '1',
    'sub.node.orch.io/y': '1',
    'example.com/free': '1',
  };
  await admit({ resource: 'nodes', name: 'node-1', object: node('node-1', kubeletLabels) });
  assert.match(
    await refused({ resource: 'nodes', name: 'node-2', object: node('node-2') }),
    /node "node-1" is not allowed to modify node "node-2"/,
  );
  assert.match(
    await refused({
      resource: 'nodes',
      name: 'node-1',
      object: node('node-1', { 'node-role.orch.io/master': '', 'node-restriction.orch.io/pool': 'a' }),
    }),
    /node "node-1" is not allowed to set the following labels: node-restriction.orch.io\/pool, node-role.orch.io\/master/,
  );
  assert.match(
    await refused({ resource: 'nodes', name: 'node-1', object: node('node-1', {}, undefined, { configMap: {} }) }),
    /non-nil configSource/,
  );
  const update = (obj: ApiObject, old: ApiObject) => ({
    operation: 'UPDATE' as const,
    resource: 'nodes',
    name: 'node-1',
    object: obj,
    oldObject: old,
  });
  await admit(update(node('node-1', { 'orch.io/os': 'linux' }, []), node('node-1', {})));
  assert.match(
    await refused(update(node('node-1', {}, [{ key: 'k', effect: 'NoSchedule' }]), node('node-1'))),
    /not allowed to modify taints/,
  );
  assert.match(
    await refused(update(node('node-1', { 'x.orch.io/thing': '1' }), node('node-1'))),
    /is not allowed to modify labels: x.orch.io\/thing/,
  );
  // An unchanged restricted label is fine.
  await admit(update(node('node-1', { 'node-role.orch.io/master': '' }), node('node-1', { 'node-role.orch.io/master': '' })));
  assert.match(
    await refused({ operation: 'DELETE', resource: 'nodes', name: 'node-2', oldObject: node('node-2') }),
    /not allowed to modify node "node-2"/,
  );
});

test('NodeRestriction: claims only through status (capacity and conditions); its own Lease and CSINode; tokens bound to its pods', async () => {
  const { admit, refused } = setup();
  const pvc = (status: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
    ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'ns', resourceVersion: '5' },
      spec,
      status,
    }) as unknown as ApiObject;
  const pvcStatus = (obj: ApiObject, old: ApiObject) => ({
    operation: 'UPDATE' as const,
    resource: 'persistentvolumeclaims',
    subresource: 'status',
    namespace: 'ns',
    name: 'c',
    object: obj,
    oldObject: old,
  });
  await admit(pvcStatus(pvc({ capacity: { storage: '2Gi' }, conditions: [{ type: 'Resizing' }] }), pvc({ capacity: { storage: '1Gi' } })));
  assert.match(
    await refused(pvcStatus(pvc({ phase: 'Lost' }), pvc({ phase: 'Bound' }))),
    /not allowed to update fields other than status.capacity and status.conditions/,
  );
  assert.match(
    await refused({
      operation: 'UPDATE',
      resource: 'persistentvolumeclaims',
      namespace: 'ns',
      name: 'c',
      object: pvc({}),
      oldObject: pvc({}),
    }),
    /may only update PVC status/,
  );
  const lease = (name: string) => ({ apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name } }) as ApiObject;
  await admit({ group: 'coordination.k8s.io', resource: 'leases', namespace: 'orch-node-lease', object: lease('node-1') });
  await admit({
    operation: 'UPDATE',
    group: 'coordination.k8s.io',
    resource: 'leases',
    namespace: 'orch-node-lease',
    name: 'node-1',
    object: lease('node-1'),
    oldObject: lease('node-1'),
  });
  assert.match(
    await refused({ group: 'coordination.k8s.io', resource: 'leases', namespace: 'default', object: lease('node-1') }),
    /can only access leases in the "orch-node-lease" system namespace/,
  );
  assert.match(
    await refused({ group: 'coordination.k8s.io', resource: 'leases', namespace: 'orch-node-lease', object: lease('node-2') }),
    /can only access node lease with the same name as the requesting node/,
  );
  const csiNode = (name: string) => ({ apiVersion: 'storage.orch.io/v1', kind: 'CSINode', metadata: { name } }) as ApiObject;
  await admit({ group: 'storage.k8s.io', resource: 'csinodes', object: csiNode('node-1') });
  assert.match(
    await refused({ operation: 'DELETE', group: 'storage.k8s.io', resource: 'csinodes', name: 'node-2', oldObject: csiNode('node-2') }),
    /can only access CSINode with the same name as the requesting node/,
  );
  const token = (boundObjectRef?: Record<string, string>) =>
    ({
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { audiences: [], boundObjectRef },
    }) as unknown as ApiObject;
  const tokenFor = (ref?: Record<string, string>) => ({
    resource: 'serviceaccounts',
    subresource: 'token',
    namespace: 'ns',
    name: 'default',
    object: token(ref),
  });
  await admit(tokenFor({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' }));
  assert.match(await refused(tokenFor()), /node requested token not bound to a pod/);
  assert.match(await refused(tokenFor({ apiVersion: 'v1', kind: 'Pod', name: 'mine' })), /a pod binding without a uid/);
  assert.match(await refused(tokenFor({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'stale' })), /does not match the UID in record/);
  assert.match(
    await refused(tokenFor({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'other-uid' })),
    /node requested token bound to a pod scheduled on a different node/,
  );
  // Creating or updating a ServiceAccount itself is not the plugin's business.
  await admit({
    resource: 'serviceaccounts',
    namespace: 'ns',
    object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'x' } },
  });
});
