/**
 * --encryption-provider-config on a real server, on the embedded store and on etcd: Secrets are
 * stored encrypted (read raw from the SQLite file, or from etcd with its own client), served plain,
 * their ledger history too; ConfigMaps, not configured, stay plain. A restart with a new key first
 * still reads the old values and writes with the new key; a restart with identity first writes plain
 * again and still reads what was encrypted.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Etcd3 } from 'etcd3';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { useEtcd } from '../../support/etcd.js';

const etcd = useEtcd();
const KEY1 = randomBytes(32).toString('base64');
const KEY2 = randomBytes(32).toString('base64');
const PASSWORD = Buffer.from('hunter2-at-rest').toString('base64');
const SECRETS = '/api/v1/namespaces/default/secrets';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function configFile(providers: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-encryption-'));
  dirs.push(dir);
  const file = join(dir, 'encryption.yaml');
  await writeFile(
    file,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [{ resources: ['secrets'], providers }],
    }),
  );
  return file;
}
const aesgcm = (name: string, secret: string) => ({ aesgcm: { keys: [{ name, secret }] } });

/** Every stored revision of a key, oldest first, as the store holds it. */
type RawRevisions = (key: string) => Promise<Buffer[]>;

function suite(
  backend: string,
  start: (args: string[]) => Promise<{ server: TestServer; raw: RawRevisions; close(): Promise<void> }>,
): void {
  test(`${backend}: Secrets are stored encrypted, served plain (their history too), rotated and decrypted by restarts`, async () => {
    const first = await configFile([aesgcm('key1', KEY1), { identity: {} }]);
    let { server, raw, close } = await start([`--encryption-provider-config=${first}`]);
    try {
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { password: PASSWORD } };
      assert.equal((await server.client.post(SECRETS, secret)).status, 201);
      assert.equal(
        (await server.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'c1' }, data: { k: 'plain-value' } }))
          .status,
        201,
      );
      const patched = await server.client.patch(
        `${SECRETS}/s1`,
        { data: { other: Buffer.from('two').toString('base64') } },
        'application/merge-patch+json',
      );
      assert.equal(patched.status, 200);
      assert.equal((await server.client.get(`${SECRETS}/s1`)).body.data.password, PASSWORD);
      const listed = await server.client.get(SECRETS);
      assert.equal(listed.body.items.find((s: { metadata: { name: string } }) => s.metadata.name === 's1').data.password, PASSWORD);
      // What the store holds: each revision under key1's prefix, the value nowhere in it.
      const revisions = await raw('/registry/secrets/default/s1');
      assert.equal(revisions.length, 2);
      for (const r of revisions) {
        assert.equal(r.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
        assert.equal(r.includes(Buffer.from(PASSWORD)), false);
        assert.equal(r.includes(Buffer.from('hunter2')), false);
      }
      const configMap = await raw('/registry/configmaps/default/c1');
      assert.match(configMap[0].toString(), /plain-value/);
      // The ledger reads the stored revisions through the same providers.
      const history = await server.client.get(`${SECRETS}/s1/history`);
      assert.equal(history.status, 200, JSON.stringify(history.body));
      assert.deepEqual(
        history.body.items.map((i: { operation: string }) => i.operation),
        ['patch', 'create'],
      );
      assert.equal(history.body.items[1].patch[0].value.data.password, PASSWORD);
      assert.deepEqual(
        history.body.items[0].patch.find((p: { path: string }) => p.path === '/data/other'),
        { op: 'add', path: '/data/other', value: Buffer.from('two').toString('base64') },
      );

      // Rotation: key2 writes, key1 still reads.
      const rotated = await configFile([aesgcm('key2', KEY2), aesgcm('key1', KEY1), { identity: {} }]);
      await close();
      ({ server, raw, close } = await start([`--encryption-provider-config=${rotated}`]));
      assert.equal((await server.client.get(`${SECRETS}/s1`)).body.data.password, PASSWORD);
      assert.equal(
        (await server.client.patch(`${SECRETS}/s1`, { data: { third: 'dGhyZWU=' } }, 'application/merge-patch+json')).status,
        200,
      );
      const afterRotation = await raw('/registry/secrets/default/s1');
      assert.equal(afterRotation.at(-1)!.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key2:');

      // Off again: identity first stores plain and still reads key2's values.
      const off = await configFile([{ identity: {} }, aesgcm('key2', KEY2)]);
      await close();
      ({ server, raw, close } = await start([`--encryption-provider-config=${off}`]));
      assert.equal((await server.client.get(`${SECRETS}/s1`)).body.data.third, 'dGhyZWU=');
      assert.equal((await server.client.post(SECRETS, { ...secret, metadata: { name: 's2' } })).status, 201);
      assert.match((await raw('/registry/secrets/default/s2'))[0].toString(), new RegExp(PASSWORD.replace(/[+/=]/g, '\\$&')));
    } finally {
      await close();
    }
  });
}

test('a server given a bad encryption configuration does not start, and says why (never with the secret)', async () => {
  const short = randomBytes(20).toString('base64');
  const file = await configFile([aesgcm('key1', short)]);
  await assert.rejects(startTestServer({ args: [`--encryption-provider-config=${file}`] }), (err: Error) => {
    assert.match(
      err.message,
      /resources\[0\]\.providers\[0\]\.aesgcm\.keys\[0\]\.secret: Invalid value: "REDACTED": secret is not of the expected length, got 20/,
    );
    assert.equal(err.message.includes(short), false);
    return true;
  });
});

describe('encryption at rest', () => {
  let dataDir: string | undefined;
  suite('embedded store', async (args) => {
    dataDir ??= await mkdtemp(join(tmpdir(), 'orch-encryption-data-'));
    dirs.push(dataDir);
    const server = await startTestServer({ dataDir, args });
    const raw: RawRevisions = async (key) => {
      const db = new Database(join(server.dataDir, 'state.db'), { readonly: true });
      try {
        return db
          .prepare<[Buffer], { value: Buffer }>('SELECT value FROM kine WHERE name = ? AND deleted = 0 ORDER BY id')
          .all(Buffer.from(key))
          .map((r) => r.value);
      } finally {
        db.close();
      }
    };
    return { server, raw, close: () => server.stop() };
  });

  const prefix = `/enc-${randomBytes(3).toString('hex')}`;
  let etcdDir: string | undefined;
  suite('etcd', async (args) => {
    etcdDir ??= await mkdtemp(join(tmpdir(), 'orch-encryption-etcd-'));
    dirs.push(etcdDir);
    const server = await startTestServer({ etcd: etcd(), etcdPrefix: prefix, dataDir: etcdDir, args });
    const client = new Etcd3({ hosts: etcd() });
    const raw: RawRevisions = async (key) => {
      const k = key.replace('/registry', prefix);
      const now = await client.get(k).exec();
      const kv = now.kvs[0];
      if (!kv) return [];
      // Each revision of the key, from its creation to now (etcd keeps them: the ledger's window).
      const out: Buffer[] = [];
      for (let rev = Number(kv.mod_revision); rev >= Number(kv.create_revision); ) {
        const at = (await client.get(k).revision(rev).exec()).kvs[0];
        if (!at) break;
        out.unshift(at.value);
        rev = Number(at.mod_revision) - 1;
      }
      return out;
    };
    return {
      server,
      raw,
      close: async () => {
        client.close();
        await server.stop();
      },
    };
  });
});
