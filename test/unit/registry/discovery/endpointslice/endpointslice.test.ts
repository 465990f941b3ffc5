import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../../apiserver/api/object.js';
import { newApiDomain } from '../../../../../apiserver/api/domain.js';
import { endpointSliceStrategy } from '../../../../../apiserver/registry/discovery/endpointslice/strategy.js';
import { endpointSliceColumns } from '../../../../../apiserver/registry/discovery/endpointslice/columns.js';

const ctx = { domain: newApiDomain(), now: new Date() };
const slice = (fields: Record<string, unknown>): ApiObject => ({ metadata: { name: 's', namespace: 'ns' }, ...fields });
const check = (obj: ApiObject) => {
  endpointSliceStrategy.applyDefaults!(obj, ctx);
  return endpointSliceStrategy.validate!(obj, ctx).map(errorMessage);
};

describe('EndpointSlice', () => {
  it('defaults port names and protocols', () => {
    const obj = slice({ addressType: 'IPv4', ports: [{ port: 80 }] });
    assert.deepEqual(check(obj), []);
    assert.deepEqual(obj.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
  });

  it('checks addresses in the slice type', () => {
    assert.deepEqual(check(slice({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] })), []);
    assert.deepEqual(check(slice({ addressType: 'IPv4', endpoints: [{ addresses: ['fd00::1', '0.0.0.0'] }, { addresses: [] }] })), [
      'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'endpoints[1].addresses: Required value: must contain at least 1 address',
    ]);
    assert.deepEqual(check(slice({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1'] }] })), [
      'endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address',
    ]);
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com', 'db'] }] })), [
      'endpoints[0].addresses[1]: Invalid value: "db": should be a domain with at least two segments separated by dots',
    ]);
    assert.deepEqual(check(slice({ addressType: 'IP' })), [
      'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
    ]);
    assert.deepEqual(check(slice({})), ['addressType: Required value']);
  });

  it('enforces the limits: 1000 endpoints, 100 addresses, 100 ports, 8 zone hints, 16 topology labels', () => {
    const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: many(1001, () => ({ addresses: ['a.b'] })) })), [
      'endpoints: Too many: 1001: must have at most 1000 items',
    ]);
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: many(101, () => 'a.b') }] })), [
      'endpoints[0].addresses: Too many: 101: must have at most 100 items',
    ]);
    assert.deepEqual(check(slice({ addressType: 'IPv4', ports: many(101, (i) => ({ name: `p${i}`, port: i + 1 })) })), [
      'ports: Too many: 101: must have at most 100 items',
    ]);
    const hints = { forZones: many(9, (i) => ({ name: `z${i}` })) };
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['a.b'], hints }] })), [
      'endpoints[0].hints.forZones: Too many: 9: must have at most 8 items',
    ]);
    const topology = Object.fromEntries(many(17, (i) => [`k${i}`, 'v']) as [string, string][]);
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['a.b'], deprecatedTopology: topology }] })), [
      'endpoints[0].deprecatedTopology: Too many: 17: must have at most 16 items',
    ]);
  });

  it('checks endpoint and port fields', () => {
    const obj = slice({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'N', hostname: 'a.b', hints: { forZones: [{ name: 'z' }, { name: 'z' }] } }],
      ports: [{ port: 80 }, { port: 81 }, { name: 'Web', port: 82, protocol: 'ICMP', appProtocol: '-' }],
    });
    assert.deepEqual(check(obj), [
      "endpoints[0].nodeName: Invalid value: \"N\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'endpoints[0].hostname: Invalid value: "a.b": must not contain dots',
      'endpoints[0].hints.forZones[1].name: Duplicate value: "z"',
      'ports[1].name: Duplicate value: ""',
      "ports[2].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'ports[2].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      "ports[2].appProtocol: Invalid value: \"-\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  it('keeps addressType on update', () => {
    const errs = endpointSliceStrategy.validateUpdate!(slice({ addressType: 'IPv6' }), slice({ addressType: 'IPv4' }), ctx).map(
      errorMessage,
    );
    assert.deepEqual(errs, ['addressType: Invalid value: "IPv6": field is immutable']);
  });

  it('prints like kubectl get endpointslices', () => {
    const row = (obj: ApiObject) => endpointSliceColumns.slice(0, 3).map((c) => c.cell(obj, new Date()));
    assert.deepEqual(row(slice({ addressType: 'IPv4' })), ['IPv4', '<unset>', '<unset>']);
    assert.deepEqual(
      row(
        slice({
          addressType: 'IPv4',
          ports: [{ port: 80 }, { name: 'x' }, {}, { port: 9 }],
          endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }],
        }),
      ),
      ['IPv4', '80,x,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3'],
    );
  });
});
