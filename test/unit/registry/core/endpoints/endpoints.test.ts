import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../../apiserver/api/object.js';
import { endpointsStrategy } from '../../../../../apiserver/registry/core/endpoints/strategy.js';
import { formatEndpoints } from '../../../../../apiserver/registry/core/endpoints/columns.js';
import type { EndpointSubset } from '../../../../../apiserver/registry/core/endpoints/types.js';
import { newApiDomain } from '../../../../../apiserver/api/domain.js';

const ctx = { domain: newApiDomain(), now: new Date() };
const eps = (subsets: EndpointSubset[]): ApiObject => ({ metadata: { name: 'e', namespace: 'ns' }, subsets });
const check = (obj: ApiObject) => endpointsStrategy.validate!(obj, ctx).map(errorMessage);

describe('Endpoints', () => {
  it('defaults port protocols to TCP', () => {
    const obj = eps([{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }]);
    endpointsStrategy.applyDefaults!(obj, ctx);
    assert.deepEqual((obj.subsets as EndpointSubset[])[0].ports, [
      { port: 80, protocol: 'TCP' },
      { port: 53, protocol: 'UDP' },
    ]);
  });

  it('validates addresses and ports', () => {
    assert.deepEqual(
      check(eps([{ addresses: [{ ip: '10.1.0.1', hostname: 'h', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }])),
      [],
    );
    assert.deepEqual(
      check(
        eps([
          { ports: [{ port: 80, protocol: 'TCP' }] },
          {
            addresses: [{ ip: '10.1.0' }, { ip: '127.0.0.1', hostname: 'Host', nodeName: 'Node_1' }],
            notReadyAddresses: [{ ip: '169.254.0.9' }],
            ports: [
              { port: 70000, protocol: 'ICMP', name: 'a' },
              { port: 1, protocol: 'TCP', appProtocol: '-x' },
            ],
          },
        ]),
      ),
      [
        'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
        'subsets[1].addresses[0].ip: Invalid value: "10.1.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'subsets[1].addresses[0].ip: Invalid value: "10.1.0": must be a valid IP address',
        "subsets[1].addresses[1].hostname: Invalid value: \"Host\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        "subsets[1].addresses[1].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'subsets[1].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'subsets[1].notReadyAddresses[0].ip: Invalid value: "169.254.0.9": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'subsets[1].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'subsets[1].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'subsets[1].ports[1].name: Required value',
        "subsets[1].ports[1].appProtocol: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    );
  });

  it('is stored repacked: addresses grouped by the ports they serve, de-duplicated, sorted', () => {
    const obj = eps([
      { addresses: [{ ip: '10.0.0.9' }, { ip: '10.0.0.10' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.9' }], notReadyAddresses: [{ ip: '10.0.0.10' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] },
      { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'dns-tcp', port: 53, protocol: 'TCP' }] },
    ]);
    endpointsStrategy.canonicalize!(obj);
    assert.deepEqual(obj.subsets, [
      {
        addresses: [{ ip: '10.0.0.2' }],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        ],
      },
      { addresses: [{ ip: '10.0.0.9' }], notReadyAddresses: [{ ip: '10.0.0.10' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
    ]);
  });

  it('prints up to three endpoints', () => {
    assert.equal(formatEndpoints(eps([])), '<none>');
    const four = eps([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::2' }], ports: [{ port: 80 }, { port: 443 }] }]);
    assert.equal(formatEndpoints(four), '10.0.0.1:80,[fd00::2]:80,10.0.0.1:443 + 1 more...');
    assert.equal(formatEndpoints(eps([{ addresses: [{ ip: '10.0.0.1' }] }])), '10.0.0.1');
  });
});
