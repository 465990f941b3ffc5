/**
 * ServiceAccount, for pods created (Kubernetes' five steps):
 * 1. a pod without spec.serviceAccountName runs as `default`;
 * 2. the service account must exist (the `default` one is retried for up to ~2 s, as the service
 *    account controller may still be creating it), else 403;
 * 3. unless the pod or the account opts out (automountServiceAccountToken: false), a projected volume
 *    `<short>-api-access-<5>` — a bound token (3607 s), the `<short>-root-ca.crt` ConfigMap's ca.crt and
 *    the namespace — is mounted read-only at /var/run/secrets/<prefix>/serviceaccount in every container
 *    and init container that has nothing mounted there;
 * 4. a pod without imagePullSecrets gets the account's;
 * 5. with the account annotated `<prefix>/enforce-mountable-secrets: "true"`, the pod may only use the
 *    secrets (volumes, env) and pull secrets the account lists.
 * Mirror pods may reference no account, no secret and no token projection.
 */
import type { ServiceAccount } from '../../api/generated/types.js';
import { generateName } from '../../registry/generic/object-meta-rules.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, ObjectReader, PluginFactory } from '../interfaces.js';
import { type Container, type Pod, podOf } from '../pods.js';
import { isResource, PODS, SERVICE_ACCOUNTS } from '../resources.js';

const DEFAULT_ACCOUNT = 'default';
const DEFAULT_ATTEMPTS = 10;
/** WarnOnlyBoundTokenExpirationSeconds. */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** ProjectedVolumeSourceDefaultMode (0644). */
const PROJECTED_DEFAULT_MODE = 420;

async function lookUp(reader: ObjectReader, namespace: string, name: string, retryMs: () => number): Promise<ServiceAccount | null> {
  const attempts = name === DEFAULT_ACCOUNT ? DEFAULT_ATTEMPTS : 1;
  for (let i = 0; i < attempts; i++) {
    if (i) await new Promise((r) => setTimeout(r, retryMs()));
    const sa = await reader.get(SERVICE_ACCOUNTS, namespace, name);
    if (sa) return sa;
  }
  return null;
}

/** Why the pod may not use a secret its account does not list, or undefined. */
function secretReferenceProblem(sa: ServiceAccount, pod: Pod): string | undefined {
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
  const account = sa.metadata.name;
  for (const v of pod.spec.volumes ?? []) {
    const name = v.secret?.secretName;
    if (v.secret && !mountable.has(name)) {
      return `volume with secret.secretName="${name ?? ''}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  const envProblem = (containers: Container[] | undefined, what: string) => {
    for (const c of containers ?? []) {
      for (const env of c.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name)) {
          return `${what} ${c.name} with envVar ${env.name} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${account} does not reference that secret`;
        }
      }
    }
    return undefined;
  };
  const env = envProblem(pod.spec.initContainers, 'init container') ?? envProblem(pod.spec.containers, 'container');
  if (env) return env;
  const pull = new Set((sa.imagePullSecrets ?? []).map((s) => s.name));
  const bad = (pod.spec.imagePullSecrets ?? []).findIndex((s) => !pull.has(s.name));
  if (bad >= 0) {
    return `imagePullSecrets[${bad}].name="${pod.spec.imagePullSecrets![bad].name}" is not allowed because service account ${account} does not reference that imagePullSecret`;
  }
  return undefined;
}

function usesSecrets(pod: Pod): boolean {
  if ((pod.spec.imagePullSecrets ?? []).length) return true;
  for (const v of pod.spec.volumes ?? []) if (v.secret || v.projected?.sources?.some((s) => s.secret)) return true;
  const containers = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? []), ...(pod.spec.ephemeralContainers ?? [])];
  return containers.some((c) => (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef) || (c.envFrom ?? []).some((e) => e.secretRef));
}

export const newServiceAccount: PluginFactory = ({ domain, reader }): AdmissionPlugin => {
  const short = domain.systemNamespace.replace(/-system$/, '');
  const volumePrefix = `${short}-api-access-`;
  const mountPath = `/var/run/secrets/${domain.labelPrefix}/serviceaccount`;
  const mirrorAnnotation = `${domain.labelPrefix}/config.mirror`;
  const enforceAnnotation = `${domain.labelPrefix}/enforce-mountable-secrets`;
  const retryMs = () => 100 + Math.floor(Math.random() * 100);

  const account = async (a: AdmissionAttributes, name: string) => {
    const sa = await lookUp(reader, a.namespace, name, retryMs);
    if (!sa) throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
    return sa;
  };

  const mountToken = (pod: Pod) => {
    // Admission runs before validation: a pod may come without containers, or with volumes without names.
    const existing = (pod.spec.volumes ?? []).find((v) => typeof v.name === 'string' && v.name.startsWith(volumePrefix));
    const volumeName = existing?.name ?? generateName(volumePrefix);
    let needed = false;
    for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
      if ((c.volumeMounts ?? []).some((m) => m.mountPath === mountPath)) continue;
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath }];
      needed = true;
    }
    if (existing || !needed) return;
    pod.spec.volumes = [
      ...(pod.spec.volumes ?? []),
      {
        name: volumeName,
        projected: {
          defaultMode: PROJECTED_DEFAULT_MODE,
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: TOKEN_EXPIRATION_SECONDS } },
            { configMap: { name: `${short}-root-ca.crt`, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ];
  };

  const validateCreate = async (a: AdmissionAttributes, pod: Pod) => {
    if (pod.metadata.annotations?.[mirrorAnnotation] !== undefined) {
      if (pod.spec.serviceAccountName) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
      if (usesSecrets(pod)) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
      const projectsToken = (pod.spec.volumes ?? []).some((v) => v.projected?.sources?.some((s) => s.serviceAccountToken));
      if (projectsToken) throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      return;
    }
    if (!pod.spec.serviceAccountName)
      throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
    const sa = await account(a, pod.spec.serviceAccountName);
    if (sa.metadata.annotations?.[enforceAnnotation] === 'true') {
      const problem = secretReferenceProblem(sa, pod);
      if (problem) throw admissionForbidden(a, problem);
    }
  };

  return {
    name: 'ServiceAccount',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, PODS),
    async admit(a) {
      const pod = podOf(a);
      if (!pod || pod.metadata.annotations?.[mirrorAnnotation] !== undefined) return;
      pod.spec.serviceAccountName ||= DEFAULT_ACCOUNT;
      pod.spec.serviceAccount = pod.spec.serviceAccountName;
      const sa = await account(a, pod.spec.serviceAccountName);
      const automount = pod.spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
      if (automount) mountToken(pod);
      if (!pod.spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) {
        pod.spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name ?? '' }));
      }
    },
    async validate(a) {
      const pod = podOf(a);
      if (pod) await validateCreate(a, pod);
    },
  };
};
