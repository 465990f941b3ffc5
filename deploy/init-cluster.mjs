// Creates (first run) or reuses the files the compose cluster shares, in the directory given as
// the first argument: certs/ (CA; serving certificate for the load balancer and both replicas),
// tokens.csv (admin token), admin.kubeconfig (for the host, via the published port 6443) and
// in-cluster.kubeconfig (for containers, via the load balancer), and lb-health.pem, the client
// certificate haproxy's /readyz checks authenticate with (anonymous access is off under AlwaysAllow).
// Runs inside the orch image.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClusterFiles, writeAdminKubeconfig } from '../dist/scripts/cluster-files.js';
import { newClientCert } from '../dist/apiserver/component-base/certs/certs.js';

const dir = process.argv[2] ?? '/var/lib/orch';
const files = ensureClusterFiles(dir, ['lb', 'apiserver-1', 'apiserver-2']);
writeAdminKubeconfig(join(dir, 'admin.kubeconfig'), 'https://127.0.0.1:6443', files);
writeAdminKubeconfig(join(dir, 'in-cluster.kubeconfig'), 'https://lb:6443', files);
// Beside certs/ (mode 0700), so haproxy's unprivileged user can read it.
const healthPem = join(dir, 'lb-health.pem');
if (!existsSync(healthPem)) {
  const pair = newClientCert(
    { certPem: files.caPem, keyPem: readFileSync(join(dir, 'certs', 'ca.key'), 'utf8') },
    { cn: 'orch-lb-health' },
  );
  writeFileSync(healthPem, pair.certPem + pair.keyPem, { mode: 0o644 }); // read by haproxy's own user
}
console.log(`cluster files ready in ${dir}`);
