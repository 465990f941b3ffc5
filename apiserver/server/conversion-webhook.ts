/**
 * A CustomResourceDefinition's conversion webhook (`conversion.strategy: Webhook`), as Kubernetes'
 * apiextensions-apiserver calls it: the objects not yet in the desired version go in ONE ConversionReview
 * (`apiextensions.<domain>/v1`, or v1beta1 when the CRD lists only that) to the webhook's `url` or
 * `service`, trusting its `caBundle`; the answer is checked (uid, result, count, apiVersion, kind, name,
 * namespace, uid) and only the labels and annotations of the converted objects' metadata are kept, the
 * rest of their metadata is the original's. Every failure is a 500 with Kubernetes' message
 * (`conversion webhook for <group>/<version>, Kind=<kind> failed: …`); nothing is converted then.
 */
import { randomUUID } from 'node:crypto';
import type { ApiDomain } from '../api/domain.js';
import type { CustomResourceDefinition } from '../api/generated/types.js';
import type { ApiObject } from '../api/object.js';
import { isPlainObject } from '../api/object.js';
import * as status from '../api/status.js';
import { aggregateMessage, fieldPath } from '../api/field-errors.js';
import { validateAnnotations, validateLabels } from '../api/validation/object-meta.js';
import type { ObjectReader } from '../admission/interfaces.js';
import { postReview } from '../admission/webhook/call.js';
import { webhookTarget } from '../admission/webhook/client-target.js';
import type { CredentialsFor } from '../admission/webhook/credentials.js';
import type { CustomResourceConverter } from '../registry/apiextensions/customresource/resource-defs.js';
import { messageOf } from '../api/thrown.js';

/** Kubernetes' client timeout for conversion webhooks (CRDs have no timeoutSeconds). */
export const CONVERSION_WEBHOOK_TIMEOUT_MS = 30_000;

export interface ConversionWebhookDeps {
  domain: ApiDomain;
  /** Services and Endpoints, to resolve a `service` reference. */
  reader: ObjectReader;
  credentialsFor?: CredentialsFor;
  timeoutMs?: number;
}

/** The review versions orch speaks, as Kubernetes picks: the first of the CRD's list it knows. */
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** "stable.example.com/v1, Kind=CronTab", as Go prints a GroupVersionKind. */
function gvkOf(obj: ApiObject): string {
  return `${obj.apiVersion}, Kind=${obj.kind}`;
}

export function newConversionWebhook(deps: ConversionWebhookDeps): CustomResourceConverter {
  const { domain, reader, credentialsFor = () => undefined, timeoutMs = CONVERSION_WEBHOOK_TIMEOUT_MS } = deps;
  const reviewGroup = domain.group('apiextensions.k8s.io');

  async function call(crd: CustomResourceDefinition, objects: ApiObject[], desiredAPIVersion: string): Promise<unknown[]> {
    const webhook = crd.spec.conversion?.webhook;
    const version = webhook?.conversionReviewVersions?.find((v) => REVIEW_VERSIONS.includes(v));
    if (!webhook || !version) throw status.unknownError('no supported conversion review versions');
    const uid = randomUUID();
    const reviewApiVersion = `${reviewGroup}/${version}`;
    const body = Buffer.from(
      JSON.stringify({ apiVersion: reviewApiVersion, kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } }),
    );
    const failed = (why: string) => status.unknownError(`conversion webhook for ${gvkOf(objects[0])} failed: ${why}`);
    let answer: unknown;
    try {
      const target = await webhookTarget(webhook.clientConfig ?? {}, reader, credentialsFor);
      answer = await postReview(target, body, timeoutMs);
    } catch (err) {
      throw failed(messageOf(err));
    }
    try {
      return convertedObjectsOf(answer, reviewApiVersion, uid);
    } catch (err) {
      throw failed(messageOf(err));
    }
  }

  return async (crd, objs, desiredAPIVersion) => {
    const sent = objs.filter((o) => o.apiVersion !== desiredAPIVersion);
    if (sent.length === 0) return objs;
    const prefix = `conversion webhook for ${gvkOf(sent[0])}`;
    const converted = await call(crd, sent, desiredAPIVersion);
    if (converted.length !== sent.length)
      throw status.unknownError(`${prefix} returned ${converted.length} objects, expected ${sent.length}`);
    // Kubernetes 1.28 converts a list's items one by one, so its messages name the one object (index 0).
    let next = 0;
    return objs.map((original) => {
      if (original.apiVersion === desiredAPIVersion) return original;
      const why = checkConverted(original, converted[next++], desiredAPIVersion);
      if (typeof why === 'string') throw status.unknownError(`${prefix} ${why}`);
      return why;
    });
  };
}

/** The webhook's object for `original`, with the original's metadata but its labels and annotations; or what is wrong with it. */
function checkConverted(original: ApiObject, out: unknown, desiredAPIVersion: string): ApiObject | string {
  if (!isPlainObject(out)) return 'returned invalid object at index 0: the object is not a JSON object';
  if (out.apiVersion !== desiredAPIVersion)
    return `returned invalid object at index 0: invalid groupVersion (expected ${desiredAPIVersion}, received ${String(out.apiVersion)})`;
  if (out.kind !== original.kind)
    return `returned invalid object at index 0: invalid kind (expected ${original.kind}, received ${String(out.kind)})`;
  const identity = sameIdentity(original, out);
  if (identity) return `returned invalid object: ${identity}`;
  const meta = restoreMetadata(original, out);
  if (meta) return `returned invalid metadata: ${meta}`;
  // restoreMetadata made its metadata the original's: it is an object of the kind now.
  return out as ApiObject;
}

/** The response's convertedObjects, or an error saying what is wrong with the review (Kubernetes' words). */
function convertedObjectsOf(answer: unknown, apiVersion: string, uid: string): unknown[] {
  const review = isPlainObject(answer) ? answer : {};
  if (review.apiVersion !== apiVersion || review.kind !== 'ConversionReview')
    throw new Error(
      `expected webhook response of ${apiVersion}, Kind=ConversionReview, got ${String(review.apiVersion ?? '')}, Kind=${String(review.kind ?? '')}`,
    );
  const response = review.response;
  if (!isPlainObject(response)) throw new Error('no response provided');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
  const result = isPlainObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message) throw new Error(result.message);
    throw new Error(`response.result.status was '${String(result.status ?? '')}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** Kubernetes' validateConvertedObject: the webhook may not change what identifies the object. */
function sameIdentity(original: ApiObject, out: Record<string, unknown>): string | undefined {
  const a = original.metadata ?? {};
  const b = (isPlainObject(out.metadata) ? out.metadata : {}) as ApiObject['metadata'];
  if ((a.name ?? '') !== (b.name ?? '')) return `must have the same name: ${a.name ?? ''} != ${b.name ?? ''}`;
  if ((a.namespace ?? '') !== (b.namespace ?? '')) return `must have the same namespace: ${a.namespace ?? ''} != ${b.namespace ?? ''}`;
  if ((a.uid ?? '') !== (b.uid ?? '')) return `must have the same UID: ${a.uid ?? ''} != ${b.uid ?? ''}`;
  return undefined;
}

/**
 * Kubernetes' restoreObjectMeta: the converted object's metadata becomes the original's, with the
 * webhook's labels and annotations (checked as labels and annotations are). An error message or undefined.
 */
function restoreMetadata(original: ApiObject, out: Record<string, unknown>): string | undefined {
  const answered = out.metadata;
  if (answered === undefined) return 'missing metadata in converted object';
  if (!isPlainObject(answered)) return `invalid metadata of type ${goType(answered)} in converted object`;
  const meta = structuredClone(original.metadata ?? {}) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete meta[field];
      continue;
    }
    if (!isPlainObject(value)) return `invalid metadata.${field} of type ${goType(value)} in converted object`;
    for (const [k, v] of Object.entries(value))
      if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`;
    const strings = value as Record<string, string>;
    const errs =
      field === 'labels'
        ? validateLabels(strings, fieldPath('metadata', 'labels'))
        : validateAnnotations(strings, fieldPath('metadata', 'annotation'));
    if (errs.length) return aggregateMessage(errs);
    meta[field] = value;
  }
  out.metadata = meta;
  return undefined;
}

/** The Go type a JSON value decodes to, as Kubernetes' messages print it. */
function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return v % 1 === 0 ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return '<nil>';
  return 'map[string]interface {}';
}
