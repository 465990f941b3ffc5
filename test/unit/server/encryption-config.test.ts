import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { checkEncryptionConfig } from '../../../apiserver/server/encryption-config.js';

const orch = newApiDomain();
const kube = newApiDomain('k8s.io');
const secret = (n = 32) => randomBytes(n).toString('base64');
const config = (resources: unknown[], apiVersion = 'apiserver.config.k8s.io/v1') => ({
  apiVersion,
  kind: 'EncryptionConfiguration',
  resources,
});
const aesgcm = (name = 'key1', s = secret()) => ({ aesgcm: { keys: [{ name, secret: s }] } });

test('the first entry naming a resource gives its providers: exact names, *.<group>, *. (core) and *.*', () => {
  const encryption = checkEncryptionConfig(
    config([
      { resources: ['secrets'], providers: [aesgcm('s')] },
      { resources: ['*.apps'], providers: [{ aescbc: { keys: [{ name: 'a', secret: secret(16) }] } }] },
      { resources: ['configmaps.'], providers: [aesgcm('c')] },
      { resources: ['*.*'], providers: [{ identity: {} }, aesgcm('all')] },
    ]),
    orch,
  );
  /** The prefix a resource's values are stored under ('x' itself when stored plain). */
  const prefixOf = (resource: string) => {
    const stored = encryption(resource)?.toStorage(Buffer.from('x'), '/k').toString('latin1') ?? '';
    return /^k8s:enc:[a-z]+:v1:[^:]+:/.exec(stored)?.[0] ?? stored;
  };
  assert.equal(prefixOf('secrets'), 'k8s:enc:aesgcm:v1:s:');
  assert.equal(prefixOf('deployments.apps'), 'k8s:enc:aescbc:v1:a:');
  assert.equal(prefixOf('configmaps'), 'k8s:enc:aesgcm:v1:c:');
  // identity first for everything else: written plain.
  assert.equal(prefixOf('widgets.example.com'), 'x');
  const none = checkEncryptionConfig(config([{ resources: ['secrets'], providers: [aesgcm()] }]), orch);
  assert.equal(none('configmaps'), undefined);
  assert.equal(none('secrets.apps'), undefined);
  const coreOnly = checkEncryptionConfig(config([{ resources: ['*.'], providers: [aesgcm()] }]), orch);
  assert.ok(coreOnly('pods'));
  assert.equal(coreOnly('deployments.apps'), undefined);
});

test("a file is read in Kubernetes' group, and in the domain's", () => {
  const resources = [{ resources: ['secrets'], providers: [aesgcm()] }];
  assert.ok(checkEncryptionConfig(config(resources, 'apiserver.config.orch.io/v1'), orch)('secrets'));
  assert.ok(checkEncryptionConfig(config(resources), kube)('secrets'));
  assert.throws(() => checkEncryptionConfig(config(resources, 'apiserver.config.orch.io/v1'), kube), /want kind EncryptionConfiguration/);
});

test('bad files are refused, naming each problem', () => {
  const bad = (doc: unknown, pattern: RegExp) => assert.throws(() => checkEncryptionConfig(doc, orch, 'enc.yaml'), pattern);
  bad({ kind: 'Policy', apiVersion: 'audit.k8s.io/v1' }, /enc\.yaml.*want kind EncryptionConfiguration/);
  bad(config([]), /resources: Required value/);
  bad(config([{ resources: [], providers: [aesgcm()] }]), /resources\[0\]\.resources: Required value/);
  bad(config([{ resources: ['secrets'], providers: [] }]), /resources\[0\]\.providers: Required value/);
  bad(config([{ resources: ['Secrets'], providers: [aesgcm()] }]), /resources\[0\]\.resources\[0\]: Invalid value: "Secrets"/);
  bad(config([{ resources: ['*'], providers: [aesgcm()] }]), /resources\[0\]\.resources\[0\]: Invalid value: "\*"/);
  bad(
    config([
      { resources: ['secrets'], providers: [aesgcm()] },
      { resources: ['secrets'], providers: [aesgcm()] },
    ]),
    /resources\[1\]\.resources\[0\]: Invalid value: "secrets": duplicate resource/,
  );
  bad(config([{ resources: ['secrets'], providers: [{ ...aesgcm(), identity: {} }] }]), /more than one provider/);
  bad(config([{ resources: ['secrets'], providers: [{}] }]), /does not contain any of the expected providers/);
  bad(
    config([{ resources: ['secrets'], providers: [{ secretbox: { keys: [{ name: 'k', secret: secret() }] } }] }]),
    /secretbox: Unsupported value/,
  );
  bad(config([{ resources: ['secrets'], providers: [{ kms: { name: 'k' } }] }]), /kms: Unsupported value/);
  bad(config([{ resources: ['secrets'], providers: [{ aesgcm: { keys: [] } }] }]), /aesgcm\.keys: Required value/);
  bad(config([{ resources: ['secrets'], providers: [aesgcm('key1', secret(20))] }]), /secret is not of the expected length, got 20/);
  bad(config([{ resources: ['secrets'], providers: [aesgcm('key1', 'not base64!')] }]), /secrets must be base64 encoded/);
  bad(config([{ resources: ['secrets'], providers: [aesgcm('', secret())] }]), /key name is required/);
  bad(
    config([
      {
        resources: ['secrets'],
        providers: [
          {
            aesgcm: {
              keys: [
                { name: 'a', secret: secret() },
                { name: 'a', secret: secret() },
              ],
            },
          },
        ],
      },
    ]),
    /keys\[1\]\.name: Duplicate value: "a"/,
  );
  // A secret never appears in a message.
  const s = secret(20);
  assert.throws(
    () => checkEncryptionConfig(config([{ resources: ['secrets'], providers: [aesgcm('k', s)] }]), orch),
    (err: Error) => !err.message.includes(s),
  );
});
