// Creates (first run) or reuses the files the compose cluster shares, in the directory given as
// the first argument: certs/ (CA; serving certificate for the load balancer and both replicas),
// tokens.csv (admin token), admin.kubeconfig (for the host, via the published port 6443) and
// in-cluster.kubeconfig (for containers, via the load balancer). Runs inside the orch image.
import { join } from 'node:path';
import { ensureClusterFiles, writeAdminKubeconfig } from '../dist/scripts/cluster-files.js';

const dir = process.argv[2] ?? '/var/lib/orch';
const files = ensureClusterFiles(dir, ['lb', 'apiserver-1', 'apiserver-2']);
writeAdminKubeconfig(join(dir, 'admin.kubeconfig'), 'https://127.0.0.1:6443', files);
writeAdminKubeconfig(join(dir, 'in-cluster.kubeconfig'), 'https://lb:6443', files);
console.log(`cluster files ready in ${dir}`);
