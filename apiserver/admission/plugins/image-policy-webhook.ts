/**
 * ImagePolicyWebhook: every pod's images are put to an image policy backend as an ImageReview
 * (`imagepolicy.<domain>/v1alpha1`) over TLS; a denial is a 403 with the backend's reason. The
 * configuration (`imagePolicy`) names the backend by a kubeconfig file (server and CA), the cache
 * lifetimes of allowed and denied answers (allowTTL, denyTTL, seconds), the pause before the one
 * retry of a failed call (retryBackoff, ms) and what a failure means (defaultAllow: admit and mark
 * the pod `alpha.image-policy.<prefix>/failed-open: "true"`, or refuse). Pod annotations matching
 * `*.image-policy.<prefix>/*` are sent along. Runs in the mutating phase so the failed-open mark is kept.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { assertKubeconfigType } from '../../api/config-versions.js';
import { admissionForbidden } from '../errors.js';
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { allContainers, podOf } from '../pods.js';
import { postReview } from '../webhook/call.js';
import { messageOf } from '../../api/thrown.js';

interface Config {
  kubeConfigFile: string;
  allowTTL: number;
  denyTTL: number;
  retryBackoff: number;
  defaultAllow: boolean;
}

interface Backend {
  url: URL;
  ca?: string;
}

function readConfig(config: unknown): Config {
  const c = (config as { imagePolicy?: Partial<Config> } | undefined)?.imagePolicy;
  if (!c) throw new Error('imagePolicy: Required value');
  if (!c.kubeConfigFile) throw new Error('imagePolicy.kubeConfigFile: Required value');
  return {
    kubeConfigFile: c.kubeConfigFile,
    allowTTL: c.allowTTL ?? 300,
    denyTTL: c.denyTTL ?? 30,
    retryBackoff: c.retryBackoff ?? 500,
    defaultAllow: c.defaultAllow ?? false,
  };
}

/** The backend's server and CA from its kubeconfig (first cluster). */
function readBackend(file: string): Backend {
  const kc = parse(readFileSync(file, 'utf8')) as {
    clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string } }[];
  };
  assertKubeconfigType(kc, `kubeConfigFile ${file}`);
  const cluster = kc.clusters?.[0]?.cluster;
  if (!cluster?.server) throw new Error(`kubeConfigFile ${file}: no cluster server`);
  const caData = cluster['certificate-authority-data'];
  const caFile = cluster['certificate-authority'];
  const ca = caData
    ? Buffer.from(caData, 'base64').toString('utf8')
    : caFile
      ? readFileSync(resolve(dirname(file), caFile), 'utf8')
      : undefined;
  return { url: new URL(cluster.server), ca };
}

interface ReviewStatus {
  allowed: boolean;
  reason?: string;
}

export const newImagePolicyWebhook: PluginFactory = ({ domain }, rawConfig): MutatingPlugin => {
  const config = readConfig(rawConfig);
  const backend = readBackend(config.kubeConfigFile);
  const apiVersion = `imagepolicy.${domain.domain}/v1alpha1`;
  const annotationPattern = new RegExp(`^[^/]+\\.image-policy\\.${domain.labelPrefix.replace(/\./g, '\\.')}/`);
  const failedOpen = `alpha.image-policy.${domain.labelPrefix}/failed-open`;
  const cache = new Map<string, { status: ReviewStatus; until: number }>();

  const ask = async (spec: unknown): Promise<ReviewStatus> => {
    const key = JSON.stringify(spec);
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.status;
    const body = Buffer.from(JSON.stringify({ apiVersion, kind: 'ImageReview', spec }));
    let answer: unknown;
    try {
      answer = await postReview(backend, body, 10_000);
    } catch {
      await new Promise((r) => setTimeout(r, config.retryBackoff));
      answer = await postReview(backend, body, 10_000);
    }
    const status = (answer as { status?: ReviewStatus } | null)?.status;
    if (!status || typeof status.allowed !== 'boolean') throw new Error('the image policy backend answered without status.allowed');
    cache.set(key, { status, until: Date.now() + (status.allowed ? config.allowTTL : config.denyTTL) * 1000 });
    return status;
  };

  return {
    name: 'ImagePolicyWebhook',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(a) {
      if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return;
      const pod = podOf({ ...a, subresource: '' });
      if (!pod) return;
      const annotations = Object.fromEntries(Object.entries(pod.metadata.annotations ?? {}).filter(([k]) => annotationPattern.test(k)));
      const spec = {
        containers: allContainers(pod.spec).map((c) => ({ image: c.image ?? '' })),
        ...(Object.keys(annotations).length ? { annotations } : {}),
        namespace: a.namespace,
      };
      let status: ReviewStatus;
      try {
        status = await ask(spec);
      } catch (err) {
        if (!config.defaultAllow) throw admissionForbidden(a, messageOf(err));
        pod.metadata.annotations = { ...pod.metadata.annotations, [failedOpen]: 'true' };
        return;
      }
      if (!status.allowed) {
        throw admissionForbidden(
          a,
          status.reason
            ? `image policy webhook backend denied one or more images: ${status.reason}`
            : 'one or more images rejected by webhook backend',
        );
      }
    },
  };
};
