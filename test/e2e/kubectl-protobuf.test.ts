/**
 * End to end (issue 16): in `--api-domain=k8s.io` mode, kubectl commands whose typed clients send
 * protobuf work (kubectl -v=8 shows the protobuf request), and a protobuf watch delivers the same
 * events as a JSON watch of the same resource.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { KUBECTL_1_32, newKubectl } from '../support/kubectl.js';
import { run } from '../support/processes.js';
import { watchProtobuf } from '../support/protobuf-watch.js';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { definitions } from '../../apiserver/api/generated/definitions.js';
import { newProtobufCodec } from '../../apiserver/runtime/protobuf/codec.js';
import { decodeWatchEvent } from '../../apiserver/runtime/protobuf/envelope.js';

describe('kubectl and protobuf (k8s.io domain)', () => {
  let s: TestServer;
  let k: ReturnType<typeof newKubectl>;
  const codec = newProtobufCodec(newApiDomain('k8s.io'), definitions);
  const kubectl = async (args: string[]) => {
    const r = await run(KUBECTL_1_32, ['--kubeconfig', s.kubeconfig, '-v=8', ...args], { env: k.env });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr.slice(-3000)}`);
    return r;
  };

  before(async () => {
    s = await startTestServer({ process: true, args: ['--api-domain=k8s.io'] });
    k = newKubectl(s.kubeconfig);
  });
  after(async () => {
    await s?.stop();
  });

  it('kubectl create clusterrolebinding, role and rolebinding send protobuf and are stored', async () => {
    const crb = await kubectl(['create', 'clusterrolebinding', 'readers', '--clusterrole=view', '--user=alice', '--group=devs']);
    assert.match(crb.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
    assert.match(crb.stdout, /clusterrolebinding.rbac.authorization.k8s.io\/readers created/);
    await kubectl(['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps']);
    await kubectl(['create', 'rolebinding', 'cm-readers', '--role=cm-reader', '--serviceaccount=default:builder']);
    const got = (await s.client.get('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/readers')).body;
    assert.deepEqual(got.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    assert.deepEqual(got.subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
    ]);
    const rb = (await s.client.get('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/cm-readers')).body;
    const [{ kind, name, namespace }] = rb.subjects;
    assert.deepEqual({ kind, name, namespace }, { kind: 'ServiceAccount', name: 'builder', namespace: 'default' });
    const can = await k.run(['auth', 'can-i', 'list', 'configmaps', '--as=system:serviceaccount:default:builder']);
    assert.equal(can.stdout.trim(), 'yes', can.stderr);
  });

  it('a protobuf watch delivers the same events as a JSON watch', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const rv = (await s.client.get(path)).body.metadata.resourceVersion;
    const json = await s.client.watch(`${path}?watch=1&resourceVersion=${rv}`);
    const pb = await watchProtobuf(s.client, `${path}?watch=1&resourceVersion=${rv}`);
    await k.ok(['create', 'configmap', 'watched', '--from-literal=a=1']);
    await k.ok(['label', 'configmap', 'watched', 'x=y']);
    await k.ok(['delete', 'configmap', 'watched']);
    for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
      const j = await json.next();
      const event = decodeWatchEvent(await pb.next());
      assert.equal(j.type, type);
      assert.equal(event.type, type);
      assert.deepEqual(codec.decode(event.object).value, j.object);
    }
    json.close();
    pb.close();
  });
});
