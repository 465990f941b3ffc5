import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDenyServiceExternalIPs } from '../../../../apiserver/admission/plugins/deny-service-external-ips.js';
import { attrs, newEnv, rejection } from '../fixture.js';

const svc = (externalIPs?: string[]) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's', namespace: 'ns' },
  spec: { ports: [{ port: 80 }], externalIPs },
});
const p = newDenyServiceExternalIPs(newEnv(), undefined);

test('DenyServiceExternalIPs refuses new external IPs and allows keeping or dropping old ones', async () => {
  await p.validate!(attrs({ resource: 'services', namespace: 'ns', object: svc() }));
  const err = await rejection(p.validate!(attrs({ resource: 'services', namespace: 'ns', object: svc(['1.2.3.4']) })));
  assert.equal(err.status.message, 'services "s" is forbidden: Use of external IPs is denied by admission control');
  const old = svc(['1.2.3.4', '5.6.7.8']);
  await p.validate!(attrs({ operation: 'UPDATE', resource: 'services', namespace: 'ns', object: svc(['5.6.7.8']), oldObject: old }));
  await rejection(
    p.validate!(attrs({ operation: 'UPDATE', resource: 'services', namespace: 'ns', object: svc(['9.9.9.9']), oldObject: old })),
  );
});
