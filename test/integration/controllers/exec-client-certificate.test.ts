/**
 * Exec plugins that return client certificates, against an HTTPS server that reads the certificate
 * of each connection: the certificate is presented, connections are reused while it stays, and a new
 * one from the plugin (after a 401) is presented on a new TLS connection.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCA, ensureServingCert, newClientCert, type CertKeyFiles } from '../../../apiserver/component-base/certs/certs.js';
import { ApiClient } from '../../../controllers/client/api-client.js';
import { isApiError } from '../../../apiserver/api/status.js';

describe('exec plugin client certificates', () => {
  let dir: string;
  let ca: CertKeyFiles;
  let server: Server;
  let connections = 0;
  const rejected = new Set<string>();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-exec-tls-'));
    ca = ensureCA(join(dir, 'pki'));
    const serving = ensureServingCert(join(dir, 'pki'), ca, []);
    server = createServer(
      { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
        const status = rejected.has(cn) ? 401 : 200;
        const body =
          status === 401
            ? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 }
            : { kind: 'Namespace', apiVersion: 'v1', metadata: { name: cn } };
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      },
    );
    server.on('secureConnection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('presents the certificate, and a new one after a 401 on a new connection', async () => {
    const credential = join(dir, 'credential.json');
    const issue = async (cn: string) => {
      const pair = newClientCert(ca, { cn });
      await writeFile(
        credential,
        JSON.stringify({
          apiVersion: 'client.authentication.orch.io/v1',
          kind: 'ExecCredential',
          status: { clientCertificateData: pair.certPem, clientKeyData: pair.keyPem },
        }),
      );
    };
    const plugin = join(dir, 'cert-plugin.mjs');
    await writeFile(
      plugin,
      `#!${process.execPath}\nimport { readFileSync } from 'node:fs';\nprocess.stdout.write(readFileSync(${JSON.stringify(credential)}, 'utf8'));\n`,
    );
    await chmod(plugin, 0o755);
    await issue('alice');

    const client = new ApiClient({
      server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      cluster: { server: '', caPem: ca.certPem, insecureSkipTlsVerify: false, disableCompression: false },
      namespace: 'default',
      exec: {
        apiVersion: 'client.authentication.orch.io/v1',
        command: plugin,
        args: [],
        env: [],
        interactiveMode: 'Never',
        provideClusterInfo: false,
      },
    });
    const namespaces = client.resource({ group: '', version: 'v1', resource: 'namespaces' });
    try {
      assert.equal((await namespaces.get('x')).metadata.name, 'alice');
      assert.equal((await namespaces.get('x')).metadata.name, 'alice');
      assert.equal(connections, 1, 'the connection is kept while the certificate stays');

      rejected.add('alice');
      await issue('bob');
      assert.equal((await namespaces.get('x')).metadata.name, 'bob');
      assert.equal(connections, 2, 'the new certificate went out on a new TLS connection');

      rejected.add('bob');
      await assert.rejects(namespaces.get('x'), (err: unknown) => isApiError(err, 'Unauthorized'));
    } finally {
      client.close();
    }
  });
});
