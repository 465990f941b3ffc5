import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { ensureCA, ensureServingCert, newClientCert, randomSerialHex } from '../../../../apiserver/component-base/certs/certs.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-certs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('ensureCA creates a CA once and reuses it', (t) => {
  const dir = tempDir(t);
  const ca = ensureCA(dir);
  assert.equal(ca.certFile, join(dir, 'ca.crt'));
  assert.equal(readFileSync(join(dir, 'ca.crt'), 'utf8'), ca.certPem);
  assert.equal(statSync(join(dir, 'ca.key')).mode & 0o777, 0o600);
  const cert = new X509Certificate(ca.certPem);
  assert.equal(cert.ca, true);
  assert.ok(cert.verify(cert.publicKey), 'self-signed');
  assert.ok(cert.checkPrivateKey(createPrivateKey(ca.keyPem)));

  const again = ensureCA(dir);
  assert.equal(again.certPem, ca.certPem);
  assert.equal(again.keyPem, ca.keyPem);
});

test('ensureCA refuses a CA certificate without its key', (t) => {
  const dir = tempDir(t);
  const ca = ensureCA(dir);
  rmSync(ca.keyFile);
  assert.throws(() => ensureCA(dir), /ca\.key is missing/);
});

test('serving certificate: signed by the CA, default and extra SANs, reused while valid for the hosts', (t) => {
  const dir = tempDir(t);
  const ca = ensureCA(dir);
  const serving = ensureServingCert(dir, ca, ['orch.example', '10.0.0.7']);
  assert.equal(statSync(serving.keyFile).mode & 0o777, 0o600);
  const cert = new X509Certificate(serving.certPem);
  const caCert = new X509Certificate(ca.certPem);
  assert.ok(cert.checkIssued(caCert));
  assert.ok(cert.verify(caCert.publicKey));
  assert.equal(cert.ca, false);
  assert.ok(cert.checkPrivateKey(createPrivateKey(serving.keyPem)));
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  for (const host of ['localhost', hostname(), 'orch.example']) assert.equal(cert.checkHost(host), host);
  for (const ip of ['127.0.0.1', '::1', '10.0.0.7']) assert.equal(cert.checkIP(ip), ip);
  assert.equal(cert.checkHost('other.example'), undefined);

  assert.equal(ensureServingCert(dir, ca, ['orch.example']).certPem, serving.certPem, 'subset of hosts: reused');
  const wider = ensureServingCert(dir, ca, ['orch.example', 'new.example']);
  assert.notEqual(wider.certPem, serving.certPem, 'new host: reissued');
  assert.equal(new X509Certificate(wider.certPem).checkHost('new.example'), 'new.example');
  assert.equal(readFileSync(wider.certFile, 'utf8'), wider.certPem);
});

test('serving certificate is reissued when signed by another CA or unreadable', (t) => {
  const dir = tempDir(t);
  const otherDir = tempDir(t);
  const ca = ensureCA(dir);
  const first = ensureServingCert(dir, ca, []);
  const otherCA = ensureCA(otherDir);
  const reissued = ensureServingCert(dir, otherCA, []);
  assert.notEqual(reissued.certPem, first.certPem);
  assert.ok(new X509Certificate(reissued.certPem).verify(new X509Certificate(otherCA.certPem).publicKey));

  writeFileSync(reissued.certFile, 'garbage');
  const repaired = ensureServingCert(dir, otherCA, []);
  assert.ok(new X509Certificate(repaired.certPem).checkIssued(new X509Certificate(otherCA.certPem)));
});

test('client certificate names the user and groups, for client auth', (t) => {
  const ca = ensureCA(tempDir(t));
  const client = newClientCert(ca, { cn: 'alice', orgs: ['dev', 'system:masters'] });
  const cert = new X509Certificate(client.certPem);
  assert.ok(cert.verify(new X509Certificate(ca.certPem).publicKey));
  assert.ok(cert.checkPrivateKey(createPrivateKey(client.keyPem)));
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.deepEqual(cert.toLegacyObject().subject, Object.assign(Object.create(null), { O: ['dev', 'system:masters'], CN: 'alice' }));
});

test('names are UTF8String, so strict parsers accept "@" and non-ASCII text', (t) => {
  const ca = ensureCA(tempDir(t));
  const client = newClientCert(ca, { cn: 'jörg@example', orgs: ['tëam'] });
  for (const pem of [ca.certPem, client.certPem]) {
    const parsed = forge.pki.certificateFromPem(pem);
    for (const a of [...parsed.subject.attributes, ...parsed.issuer.attributes]) assert.equal(a.valueTagClass, forge.asn1.Type.UTF8);
  }
  const cert = new X509Certificate(client.certPem);
  assert.equal(cert.toLegacyObject().subject.CN, 'jörg@example');
  assert.equal(cert.toLegacyObject().subject.O, 'tëam');
  assert.ok(cert.checkIssued(new X509Certificate(ca.certPem)));
});

test('random serials are minimal positive DER integers: first byte 0x01–0x7f, 16 bytes', () => {
  for (let i = 0; i < 2000; i++) {
    const hex = randomSerialHex();
    assert.equal(hex.length, 32);
    const first = Number.parseInt(hex.slice(0, 2), 16);
    assert.ok(first >= 0x01 && first <= 0x7f, `serial ${hex} starts with byte ${first}`);
  }
});
