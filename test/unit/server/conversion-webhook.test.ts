/**
 * The conversion webhook client against a real HTTPS webhook (own CA): what it sends (only objects in
 * another version, the review version the CRD names, the domain's group), what it keeps of the answer
 * (labels and annotations, never other metadata), and the failures: a timeout, unsupported review
 * versions, invalid labels.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import type { CustomResourceDefinition } from '../../../apiserver/api/generated/types.js';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { isApiError } from '../../../apiserver/api/status.js';
import { newConversionWebhook } from '../../../apiserver/server/conversion-webhook.js';
import { type Answer, type Review, startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';

const GROUP = 'unit.example.com';
const noReader = {
  get: async () => null,
  list: async () => [],
};

interface Request {
  uid: string;
  desiredAPIVersion: string;
  objects: ApiObject[];
}

describe('conversion webhook client', () => {
  let hook: WebhookServer;
  let respond: (review: Review, request: Request) => Answer;
  const seen: Review[] = [];

  before(async () => {
    hook = await startWebhookServer((review) => {
      seen.push(review);
      return respond(review, review.request as unknown as Request);
    });
  });
  after(() => hook?.close());

  const crd = (versions = ['v1']): CustomResourceDefinition =>
    ({
      metadata: { name: `things.${GROUP}` },
      spec: {
        group: GROUP,
        names: { plural: 'things', kind: 'Thing' },
        scope: 'Namespaced',
        versions: [],
        conversion: {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: versions, clientConfig: { url: hook.url('/c'), caBundle: hook.caBundle } },
        },
      },
    }) as unknown as CustomResourceDefinition;
  const thing = (name: string, version: string, meta: Record<string, unknown> = {}): ApiObject =>
    ({
      apiVersion: `${GROUP}/${version}`,
      kind: 'Thing',
      metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '5', ...meta },
      spec: { n: 1 },
    }) as unknown as ApiObject;
  const success = (review: Review, request: Request, edit: (o: Record<string, any>) => void = () => {}): Answer => {
    const convertedObjects = request.objects.map((o) => {
      const c = structuredClone({ ...o, apiVersion: request.desiredAPIVersion }) as Record<string, any>;
      edit(c);
      return c;
    });
    return {
      raw: JSON.stringify({
        apiVersion: review.apiVersion,
        kind: 'ConversionReview',
        response: { uid: request.uid, convertedObjects, result: { status: 'Success' } },
      }),
    };
  };

  it('sends only objects in another version, in one review of the domain group, and keeps the others in place', async () => {
    const convert = newConversionWebhook({ domain: newApiDomain(), reader: noReader });
    respond = (review, request) => success(review, request);
    seen.length = 0;
    const out = await convert(crd(), [thing('a', 'v1'), thing('b', 'v2'), thing('c', 'v1')], `${GROUP}/v2`);
    assert.deepEqual(
      out.map((o) => [o.metadata.name, o.apiVersion]),
      [
        ['a', `${GROUP}/v2`],
        ['b', `${GROUP}/v2`],
        ['c', `${GROUP}/v2`],
      ],
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0].apiVersion, 'apiextensions.orch.io/v1');
    assert.deepEqual(
      (seen[0].request as unknown as Request).objects.map((o) => o.metadata.name),
      ['a', 'c'],
    );
    seen.length = 0;
    const same = [thing('d', 'v2')];
    assert.equal(await convert(crd(), same, `${GROUP}/v2`), same, 'nothing to convert: no call');
    assert.equal(seen.length, 0);
  });

  it('keeps the labels and annotations the webhook sets and restores every other metadata field', async () => {
    const convert = newConversionWebhook({ domain: newApiDomain(), reader: noReader });
    respond = (review, request) =>
      success(review, request, (o) => {
        o.metadata.labels = { tier: 'gold' };
        o.metadata.annotations = { note: 'converted' };
        o.metadata.resourceVersion = '999';
        o.metadata.generation = 42;
      });
    const [out] = await convert(crd(), [thing('a', 'v1', { labels: { old: 'x' } })], `${GROUP}/v2`);
    assert.deepEqual(out.metadata, {
      name: 'a',
      namespace: 'default',
      uid: 'uid-a',
      resourceVersion: '5',
      labels: { tier: 'gold' },
      annotations: { note: 'converted' },
    });
  });

  it('refuses invalid labels, a changed UID, a changed kind', async () => {
    const convert = newConversionWebhook({ domain: newApiDomain(), reader: noReader });
    const cases: [(o: Record<string, any>) => void, string][] = [
      [
        (o) => {
          o.metadata.labels = { 'bad key!': 'x' };
        },
        `conversion webhook for ${GROUP}/v1, Kind=Thing returned invalid metadata: metadata.labels: Invalid value: "bad key!"`,
      ],
      [
        (o) => {
          o.metadata.labels = { n: 1 };
        },
        `conversion webhook for ${GROUP}/v1, Kind=Thing returned invalid metadata: metadata.labels[n] must be a string, but is int64 in converted object`,
      ],
      [
        (o) => {
          o.metadata.uid = 'other';
        },
        `conversion webhook for ${GROUP}/v1, Kind=Thing returned invalid object: must have the same UID: uid-a != other`,
      ],
      [
        (o) => {
          o.kind = 'Other';
        },
        `conversion webhook for ${GROUP}/v1, Kind=Thing returned invalid object at index 0: invalid kind (expected Thing, received Other)`,
      ],
    ];
    for (const [edit, message] of cases) {
      respond = (review, request) => success(review, request, edit);
      await assert.rejects(convert(crd(), [thing('a', 'v1')], `${GROUP}/v2`), (err) => {
        assert.ok(isApiError(err));
        assert.equal(err.status.reason, undefined, 'no reason, as Kubernetes answers errors that are no API errors');
        assert.equal(err.status.code, 500);
        assert.ok(err.status.message?.startsWith(message), err.status.message);
        return true;
      });
    }
  });

  it('a webhook slower than the timeout fails the conversion with a deadline error', async () => {
    const convert = newConversionWebhook({ domain: newApiDomain(), reader: noReader, timeoutMs: 200 });
    respond = (review, request) => ({ delayMs: 1000, answer: success(review, request) });
    const started = Date.now();
    await assert.rejects(convert(crd(), [thing('a', 'v1')], `${GROUP}/v2`), (err) => {
      assert.ok(isApiError(err));
      assert.equal(err.status.reason, undefined, 'no reason, as Kubernetes answers errors that are no API errors');
      assert.match(
        err.status.message ?? '',
        /^conversion webhook for unit\.example\.com\/v1, Kind=Thing failed: Post "https:\/\/127\.0\.0\.1:\d+\/c": context deadline exceeded/,
      );
      return true;
    });
    assert.ok(Date.now() - started < 900, 'gave up at the timeout');
  });

  it('speaks v1beta1 when the CRD lists only it, and refuses review versions it does not know', async () => {
    const convert = newConversionWebhook({ domain: newApiDomain(), reader: noReader });
    respond = (review, request) => success(review, request);
    seen.length = 0;
    await convert(crd(['v1beta1']), [thing('a', 'v1')], `${GROUP}/v2`);
    assert.equal(seen[0].apiVersion, 'apiextensions.orch.io/v1beta1');
    await assert.rejects(convert(crd(['v2']), [thing('a', 'v1')], `${GROUP}/v2`), /no supported conversion review versions/);
  });
});
