/**
 * AdmissionReview v1 / v1beta1 (the first of the webhook's admissionReviewVersions that orch speaks):
 * the request sent, and the checks on the answer (kind, version, uid, patch type), worded as
 * Kubernetes words them.
 */
import { randomUUID } from 'node:crypto';
import type { ApiDomain } from '../../api/domain.js';
import { type ApiObject, isOneOf } from '../../api/object.js';
import type { AdmissionAttributes } from '../interfaces.js';
import type { Target } from './matching.js';

export const REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

export interface ReviewResponse {
  uid: string;
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string };
  patch?: string;
  patchType?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

export interface Review {
  uid: string;
  version: string;
  body: Buffer;
}

/** The version to speak, or undefined when the webhook lists none orch knows. */
export function pickVersion(versions: string[] | undefined): string | undefined {
  return (versions ?? []).find((v) => isOneOf(REVIEW_VERSIONS, v));
}

export function buildReview(
  domain: ApiDomain,
  version: string,
  a: AdmissionAttributes,
  target: Target,
  kind: string,
  object: ApiObject | undefined,
  oldObject: ApiObject | undefined,
): Review {
  const uid = randomUUID();
  const gvr = { group: target.group, version: target.version, resource: target.resource };
  // A subresource's own kind when it has one (pods/exec: PodExecOptions, pods/binding: Binding).
  const objectKind = a.subresource && object?.kind ? object.kind : kind;
  const gvk = { group: target.group, version: target.version, kind: objectKind };
  const request = {
    uid,
    kind: gvk,
    resource: gvr,
    subResource: target.subresource || undefined,
    requestKind: {
      group: a.resource.group,
      version: a.resource.version,
      kind: a.subresource && a.object?.kind ? a.object.kind : a.resource.kind,
    },
    requestResource: { group: a.resource.group, version: a.resource.version, resource: a.resource.plural },
    requestSubResource: a.subresource || undefined,
    name: a.name || undefined,
    namespace: a.namespace || undefined,
    operation: a.operation,
    userInfo: { username: a.user.name, uid: a.user.uid, groups: a.user.groups, extra: a.user.extra },
    object: object ?? null,
    oldObject: oldObject ?? null,
    dryRun: a.dryRun,
    // CreateOptions, UpdateOptions or DeleteOptions of the meta group (meta.k8s.io/v1 for k8s.io).
    options: a.options ? { kind: a.options.kind, apiVersion: `${domain.metaGroup}/v1`, ...a.options } : undefined,
  };
  const review = { apiVersion: `${domain.group('admission.k8s.io')}/${version}`, kind: 'AdmissionReview', request };
  return { uid, version, body: Buffer.from(JSON.stringify(review)) };
}

/** The answer's response, checked; throws an Error naming what is wrong with it. */
export function readResponse(domain: ApiDomain, review: Review, answer: unknown): ReviewResponse {
  const a = answer as { apiVersion?: string; kind?: string; response?: ReviewResponse } | null;
  const groups = [domain.group('admission.k8s.io'), 'admission.k8s.io'];
  const want = `${domain.group('admission.k8s.io')}/${review.version}`;
  if (!a || typeof a !== 'object' || a.kind !== 'AdmissionReview' || !groups.some((g) => a.apiVersion === `${g}/${review.version}`)) {
    throw new Error(`expected webhook response of ${want}, Kind=AdmissionReview, got ${a?.apiVersion ?? ''}, Kind=${a?.kind ?? ''}`);
  }
  const r = a.response;
  if (!r || typeof r !== 'object') throw new Error('webhook response was absent');
  if (r.uid !== review.uid) throw new Error(`expected response.uid=${JSON.stringify(review.uid)}, got ${JSON.stringify(r.uid)}`);
  if (typeof r.allowed !== 'boolean') throw new Error('webhook response.allowed is not a bool');
  if (r.patch !== undefined && r.patchType !== 'JSONPatch') {
    throw new Error(`webhook returned invalid patchType: ${JSON.stringify(r.patchType ?? '')}`);
  }
  return r;
}
