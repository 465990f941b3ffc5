/**
 * Creates with 0, 1 and 3 validating admission webhooks in the way: a local HTTPS webhook (its own
 * CA) that admits everything, registered once per webhook for a namespace of its own, and the create
 * scenario run in that namespace. The difference to 0 webhooks is what a webhook call costs.
 */
import { startWebhookServer } from '../../test/support/webhook-server.js';
import { type ApiClient, expectStatus } from './api-client.js';
import { runCreate } from './api-scenarios.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

export const WEBHOOK_COUNTS = [0, 1, 3] as const;

export async function runWebhookCreates(
  api: ApiClient,
  ns: string,
  options: BenchOptions,
  measured: (run: () => Promise<ScenarioResult>) => Promise<void>,
): Promise<void> {
  const hook = await startWebhookServer(() => ({ allowed: true }));
  const group = '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations';
  try {
    for (const n of WEBHOOK_COUNTS) {
      const space = `${ns}-wh${n}`;
      const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: space, labels: { 'bench-webhooks': space } } };
      expectStatus(await api.request('POST', '/api/v1/namespaces', JSON.stringify(namespace)), 201, 'namespace');
      const names = Array.from({ length: n }, (_, i) => `${space}-${i}`);
      for (const name of names) {
        const config = {
          metadata: { name },
          webhooks: [
            {
              name: `${name}.bench.orch.io`,
              clientConfig: { url: hook.url(`/${name}`), caBundle: hook.caBundle },
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
              namespaceSelector: { matchLabels: { 'bench-webhooks': space } },
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
            },
          ],
        };
        expectStatus(await api.request('POST', group, JSON.stringify(config)), 201, 'webhook configuration');
      }
      // Configurations act once the server's watch has seen them: wait until a probe reaches all n.
      for (let probe = 0; n > 0; probe++) {
        const seen = hook.reviews.length;
        const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${probe}` } });
        expectStatus(await api.request('POST', `/api/v1/namespaces/${space}/configmaps`, cm), 201, 'probe');
        if (hook.reviews.length - seen === n) break;
        if (probe > 100) throw new Error(`webhooks: ${n} configurations not in effect after 100 probes`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const before = hook.reviews.length;
      await measured(async () => {
        const r = await runCreate(api, space, options);
        return { ...r, scenario: `create-${n}-webhooks`, webhookCalls: hook.reviews.length - before };
      });
      hook.reviews.length = 0;
      for (const name of names) expectStatus(await api.request('DELETE', `${group}/${name}`), 200, 'webhook configuration delete');
    }
  } finally {
    await hook.close();
  }
}
