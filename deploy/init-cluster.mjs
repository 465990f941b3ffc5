// Creates (first run) or reuses the files the compose cluster shares, in the directory given as
// the first argument: certs/ (CA; serving certificate for the front door and both replicas),
// certs/front-proxy/ (the front door's own CA and client certificate, with which it forwards
// identities to the replicas), tokens.csv (admin token), admin.kubeconfig (for the host, via the
// published port 6443) and in-cluster.kubeconfig (for containers, via the front door).
// Runs inside the orch image. For other layouts (deploy/kubernetes) ORCH_SERVING_HOSTS (comma-separated
// names for the serving certificate) and ORCH_IN_CLUSTER_SERVER (in-cluster.kubeconfig's server) change
// the compose defaults.
import { join } from 'node:path';
import { ensureClusterFiles, ensureFrontProxyFiles, writeAdminKubeconfig } from '../dist/scripts/cluster-files.js';

const dir = process.argv[2] ?? '/var/lib/orch';
const hosts = (process.env.ORCH_SERVING_HOSTS ?? 'proxy,apiserver-1,apiserver-2').split(',').filter(Boolean);
const files = ensureClusterFiles(dir, hosts);
ensureFrontProxyFiles(dir);
writeAdminKubeconfig(join(dir, 'admin.kubeconfig'), 'https://127.0.0.1:6443', files);
writeAdminKubeconfig(join(dir, 'in-cluster.kubeconfig'), process.env.ORCH_IN_CLUSTER_SERVER ?? 'https://proxy:6443', files);
console.log(`cluster files ready in ${dir}`);
