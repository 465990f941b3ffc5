import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../../apiserver/api/field-errors.js';
import { newApiDomain } from '../../../../../apiserver/api/domain.js';
import type { Service } from '../../../../../apiserver/api/generated/types.js';
import { asApiObject } from '../../../../../apiserver/api/object.js';
import { setServiceDefaults } from '../../../../../apiserver/registry/core/service/defaults.js';
import {
  dropTypeDependentFields,
  normalizeClusterIPs,
  patchAllocatedValues,
} from '../../../../../apiserver/registry/core/service/linked-fields.js';
import { initIPFamilyFields } from '../../../../../apiserver/registry/core/service/ip-families.js';
import type { ServiceSpec } from '../../../../../apiserver/registry/core/service/service-spec.js';
import { validateService, validateServiceUpdate } from '../../../../../apiserver/registry/core/service/validation.js';
import { serviceColumns } from '../../../../../apiserver/registry/core/service/columns.js';

const domain = newApiDomain();
const svc = (spec: ServiceSpec, extra: Partial<Service> = {}): Service => ({
  metadata: { name: 's', namespace: 'ns' },
  spec,
  ...extra,
});
const defaulted = (spec: ServiceSpec): Service => {
  const obj = svc(spec);
  setServiceDefaults(obj);
  return obj;
};
const check = (obj: Service) => validateService(obj, domain).map(errorMessage);

describe('Service defaults', () => {
  it('fills what SetDefaults_Service fills, per type', () => {
    assert.deepEqual(defaulted({ ports: [{ port: 80 }, { port: 81, targetPort: 'web', protocol: 'UDP' }] }).spec, {
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 81, targetPort: 'web', protocol: 'UDP' },
      ],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
    const lb = defaulted({ type: 'LoadBalancer', sessionAffinity: 'ClientIP' }).spec as ServiceSpec;
    assert.deepEqual(lb.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    assert.equal(lb.externalTrafficPolicy, 'Cluster');
    assert.equal(lb.allocateLoadBalancerNodePorts, true);
    const external = defaulted({ type: 'ExternalName', externalName: 'db.example.com', sessionAffinityConfig: {} }).spec as ServiceSpec;
    assert.deepEqual(external, { type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
    assert.equal((defaulted({ externalIPs: ['1.2.3.4'] }).spec as ServiceSpec).externalTrafficPolicy, 'Cluster');
  });
});

describe('Service validation', () => {
  it('accepts a defaulted Service of each type', () => {
    for (const spec of [
      { ports: [{ port: 80 }] },
      { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
      { type: 'LoadBalancer', externalTrafficPolicy: 'Local', loadBalancerClass: 'example.com/lb', ports: [{ port: 80 }] },
      { type: 'ExternalName', externalName: 'db.example.com.' },
      { clusterIP: 'None', clusterIPs: ['None'] },
    ]) {
      assert.deepEqual(check(defaulted(spec)), [], JSON.stringify(spec));
    }
  });

  it('port rules', () => {
    const obj = defaulted({
      ports: [
        { port: 80, name: 'Web' },
        { port: 0, name: 'b', targetPort: 'x--y', protocol: 'ICMP' },
        { port: 80, name: 'b', appProtocol: 'bad/proto/x' },
        { port: 81 },
      ],
    });
    assert.deepEqual(check(obj), [
      "spec.ports[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].targetPort: Invalid value: "x--y": must not contain consecutive hyphens',
      'spec.ports[2].name: Duplicate value: "b"',
      "spec.ports[2].appProtocol: Invalid value: \"bad/proto/x\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      'spec.ports[3].name: Required value',
      'spec.ports[2]: Duplicate value: {"protocol":"TCP","port":80}',
    ]);
  });

  it('type-specific rules', () => {
    assert.deepEqual(
      check(defaulted({ type: 'ExternalName', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilyPolicy: 'SingleStack' })),
      [
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
        'spec.externalName: Required value',
      ],
    );
    assert.deepEqual(check(defaulted({ type: 'NodePort', clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80 }] })), [
      'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services',
    ]);
    assert.deepEqual(
      check(
        defaulted({
          ports: [{ port: 80, nodePort: 30000 }],
          allocateLoadBalancerNodePorts: true,
          loadBalancerClass: 'a/b',
          healthCheckNodePort: 30001,
        }),
      ),
      [
        "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
        "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
        "spec.healthCheckNodePort: Invalid value: 30001: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ],
    );
    assert.deepEqual(check(defaulted({ type: 'Foo', ports: [{ port: 80 }] })), [
      'spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
  });

  it('session affinity, traffic policies, external IPs, source ranges', () => {
    const obj = defaulted({
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } },
      externalIPs: ['1.2.3', '127.0.0.1'],
      internalTrafficPolicy: 'Nowhere',
      externalTrafficPolicy: 'Local',
      loadBalancerSourceRanges: ['10.0.0.0/8', 'x'],
      ports: [{ port: 80 }],
    });
    assert.deepEqual(check(obj), [
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
      'spec.externalIPs[0]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges: Invalid value: "[10.0.0.0/8 x]": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
      'spec.internalTrafficPolicy: Unsupported value: "Nowhere": supported values: "Cluster", "Local"',
    ]);
    const annotated = defaulted({ type: 'LoadBalancer', ports: [{ port: 80 }] });
    annotated.metadata.annotations = { 'service.beta.orch.io/load-balancer-source-ranges': '10.0.0.0/8, 1.2.3.0/24' };
    assert.deepEqual(check(annotated), []);
    annotated.metadata.annotations = { 'service.orch.io/topology-mode': 'Auto', 'service.orch.io/topology-aware-hints': 'Disabled' };
    assert.deepEqual(check(annotated), [
      'metadata.annotations[service.orch.io/topology-mode]: Invalid value: "Auto": must match annotations[service.orch.io/topology-aware-hints] when both are specified',
    ]);
  });

  it('cluster IP, IP family and policy rules', () => {
    const messages = (spec: ServiceSpec) => check(defaulted({ ports: [{ port: 80 }], ...spec }));
    assert.deepEqual(messages({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'] }), [
      'spec.clusterIPs: Invalid value: []string{"10.0.0.6"}: first value must match `clusterIP`',
    ]);
    assert.deepEqual(messages({ clusterIPs: ['10.0.0.6'] }), [
      'spec.clusterIPs: Invalid value: []string{"10.0.0.6"}: must be empty when `clusterIP` is not specified',
    ]);
    assert.deepEqual(messages({ clusterIP: 'None', clusterIPs: ['None', '10.0.0.1'] }), [
      'spec.clusterIPs: Invalid value: []string{"None", "10.0.0.1"}: \'None\' must be the first and only value',
    ]);
    assert.deepEqual(messages({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '10.0.0.2'] }), [
      'spec.clusterIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family',
    ]);
    assert.deepEqual(messages({ clusterIP: 'x', clusterIPs: ['x'] }), [
      'spec.clusterIPs[0]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(messages({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv6', 'IPv6'], ipFamilyPolicy: 'Dual' }), [
      'spec.ipFamilies[1]: Duplicate value: "IPv6"',
      'spec.ipFamilyPolicy: Unsupported value: "Dual": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
      'spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]);
  });

  it('update rules: primary IP and family fixed, secondary released only as SingleStack, class and health check fixed', () => {
    const old = svc({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30100,
      loadBalancerClass: 'a/b',
      clusterIP: '10.0.0.5',
      clusterIPs: ['10.0.0.5', 'fd00::5'],
      ipFamilies: ['IPv4', 'IPv6'],
      ipFamilyPolicy: 'PreferDualStack',
    });
    const next = svc({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30101,
      loadBalancerClass: 'a/c',
      clusterIP: '10.0.0.6',
      clusterIPs: ['10.0.0.6'],
      ipFamilies: ['IPv6'],
      ipFamilyPolicy: 'PreferDualStack',
    });
    assert.deepEqual(validateServiceUpdate(next, old).map(errorMessage), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.6"}: may not change once set',
      'spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the secondary clusterIP',
      'spec.ipFamilies[0]: Invalid value: []string{"10.0.0.6"}: may not change once set',
      'spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the secondary ipFamily',
      'spec.loadBalancerClass: Invalid value: "a/c": may not change once set',
      'spec.healthCheckNodePort: Forbidden: field is immutable',
    ]);
  });
});

describe('Service linked fields', () => {
  it('normalizeClusterIPs follows the singular field', () => {
    const created: ServiceSpec = { clusterIP: '10.0.0.5' };
    normalizeClusterIPs(created, null);
    assert.deepEqual(created.clusterIPs, ['10.0.0.5']);
    const old: ServiceSpec = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'] };
    const oldClient: ServiceSpec = { clusterIP: '10.0.0.5' };
    normalizeClusterIPs(oldClient, old);
    assert.deepEqual(oldClient.clusterIPs, ['10.0.0.5', 'fd00::5']);
    const cleared: ServiceSpec = { clusterIPs: ['10.0.0.5', 'fd00::5'] };
    normalizeClusterIPs(cleared, old);
    assert.equal(cleared.clusterIPs, undefined);
    const changed: ServiceSpec = { clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.5', 'fd00::5'] };
    normalizeClusterIPs(changed, old);
    assert.deepEqual(changed.clusterIPs, ['10.0.0.9']);
  });

  it('patchAllocatedValues keeps server-allocated values a client left out', () => {
    const old: ServiceSpec = {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30100,
      clusterIP: '10.0.0.5',
      clusterIPs: ['10.0.0.5'],
      ports: [
        { name: 'a', port: 80, nodePort: 30001 },
        { name: 'b', port: 81, nodePort: 30002 },
      ],
    };
    const next: ServiceSpec = {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      ports: [
        { name: 'a', port: 80 },
        { name: 'c', port: 82, nodePort: 30002 },
        { name: 'b', port: 81 },
      ],
    };
    patchAllocatedValues(next, old);
    assert.equal(next.clusterIP, '10.0.0.5');
    assert.deepEqual(next.clusterIPs, ['10.0.0.5']);
    assert.equal(next.healthCheckNodePort, 30100);
    // b's old node port is now used by c, so b gets a new one.
    assert.deepEqual(
      next.ports!.map((p) => p.nodePort),
      [30001, 30002, undefined],
    );
  });

  it('dropTypeDependentFields clears what the new type does not use, unless the client changed it', () => {
    const old: ServiceSpec = {
      type: 'LoadBalancer',
      clusterIP: '10.0.0.5',
      clusterIPs: ['10.0.0.5'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ port: 80, nodePort: 30001 }],
      allocateLoadBalancerNodePorts: true,
      loadBalancerClass: 'a/b',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30100,
    };
    const next: ServiceSpec = {
      ...structuredClone(old),
      type: 'ExternalName',
      externalName: 'x.example.com',
      ipFamilyPolicy: 'RequireDualStack',
    };
    const status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
    dropTypeDependentFields(next, old, status);
    assert.deepEqual(next, {
      type: 'ExternalName',
      externalName: 'x.example.com',
      ipFamilyPolicy: 'RequireDualStack',
      ports: [{ port: 80 }],
    });
    assert.deepEqual(status, { loadBalancer: {} });
  });
});

describe('IP family fields', () => {
  const init = (spec: ServiceSpec, old: ServiceSpec | null, configured: ('IPv4' | 'IPv6')[]) =>
    initIPFamilyFields(spec, old, configured).map(errorMessage);

  it('defaults policy and families from the cluster and the given IPs', () => {
    const plain: ServiceSpec = { type: 'ClusterIP' };
    assert.deepEqual(init(plain, null, ['IPv4', 'IPv6']), []);
    assert.deepEqual([plain.ipFamilyPolicy, plain.ipFamilies], ['SingleStack', ['IPv4']]);
    const preferred: ServiceSpec = { type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack' };
    assert.deepEqual(init(preferred, null, ['IPv6', 'IPv4']), []);
    assert.deepEqual(preferred.ipFamilies, ['IPv6', 'IPv4']);
    const fromIP: ServiceSpec = { type: 'ClusterIP', clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] };
    assert.deepEqual(init(fromIP, null, ['IPv4', 'IPv6']), []);
    assert.deepEqual(fromIP.ipFamilies, ['IPv6']);
    const headless: ServiceSpec = { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] };
    assert.deepEqual(init(headless, null, ['IPv4']), []);
    assert.deepEqual([headless.ipFamilyPolicy, headless.ipFamilies], ['RequireDualStack', ['IPv4', 'IPv6']]);
  });

  it('refuses what the cluster cannot serve', () => {
    assert.deepEqual(init({ type: 'ClusterIP', ipFamilyPolicy: 'RequireDualStack' }, null, ['IPv4']), [
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
    assert.deepEqual(init({ type: 'ClusterIP', ipFamilies: ['IPv6'] }, null, ['IPv4']), [
      'spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    ]);
    assert.deepEqual(init({ type: 'ClusterIP', clusterIP: 'fd00::1', clusterIPs: ['fd00::1'] }, null, ['IPv4']), [
      'spec.clusterIPs[0]: Invalid value: []string{"fd00::1"}: IPv6 is not configured on this cluster',
    ]);
    assert.deepEqual(init({ type: 'ClusterIP', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }, null, ['IPv4', 'IPv6']), [
      "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
    ]);
  });

  it('on update, SingleStack releases the secondary; other policies may not', () => {
    const old: ServiceSpec = {
      type: 'ClusterIP',
      clusterIP: '10.0.0.5',
      clusterIPs: ['10.0.0.5', 'fd00::5'],
      ipFamilies: ['IPv4', 'IPv6'],
      ipFamilyPolicy: 'RequireDualStack',
    };
    const down: ServiceSpec = { ...structuredClone(old), ipFamilyPolicy: 'SingleStack' };
    assert.deepEqual(init(down, old, ['IPv4', 'IPv6']), []);
    assert.deepEqual([down.clusterIPs, down.ipFamilies], [['10.0.0.5'], ['IPv4']]);
    assert.deepEqual(init({ ...structuredClone(old), clusterIPs: ['10.0.0.5'] }, old, ['IPv4', 'IPv6']), [
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be \'SingleStack\' to release the secondary cluster IP',
    ]);
  });
});

describe('Service table', () => {
  it('prints like kubectl get services -o wide', () => {
    const row = (obj: Service) => serviceColumns.filter((c) => c.name !== 'Age').map((c) => c.cell(asApiObject(obj), new Date()));
    assert.deepEqual(
      row(svc({ type: 'ClusterIP', clusterIPs: ['10.0.0.5'], ports: [{ port: 80, protocol: 'TCP' }], selector: { z: '1', app: 'a' } })),
      ['ClusterIP', '10.0.0.5', '<none>', '80/TCP', 'app=a,z=1'],
    );
    assert.deepEqual(
      row(svc({ type: 'LoadBalancer', clusterIPs: ['10.0.0.6'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] })),
      ['LoadBalancer', '10.0.0.6', '<pending>', '80:30080/TCP', '<none>'],
    );
    const lb = svc(
      { type: 'LoadBalancer', externalIPs: ['5.6.7.8'], ports: [] },
      { status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }, { ip: '1.2.3.4' }] } } },
    );
    assert.deepEqual(row(lb).slice(1, 4), ['<none>', '1.2.3.4,lb.example.com,5.6.7.8', '<none>']);
    assert.deepEqual(row(svc({ type: 'ExternalName', externalName: 'db.example.com' })).slice(2, 3), ['db.example.com']);
  });
});
