import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServiceClusterIPRanges } from '../../../../../../apiserver/registry/core/service/allocator/service-cidrs.js';
import { formatPortRange, parsePortRange } from '../../../../../../apiserver/registry/core/service/allocator/port-range.js';

test('service cluster IP ranges: one or two CIDRs of different families, canonical', () => {
  assert.deepEqual(parseServiceClusterIPRanges(''), ['10.0.0.0/24']);
  assert.deepEqual(parseServiceClusterIPRanges('10.96.0.1/12'), ['10.96.0.0/12']);
  assert.deepEqual(parseServiceClusterIPRanges('fd00:0::/112,10.0.0.0/16'), ['fd00::/112', '10.0.0.0/16']);
  const fails = (value: string, message: string) => assert.throws(() => parseServiceClusterIPRanges(value), { message });
  fails('10.0.0.0', 'service-cluster-ip-range[0] is not a valid cidr');
  fails('10.0.0.0/24,x', 'service-cluster-ip-range[1] is not an ip net');
  fails(
    '10.0.0.0/30',
    'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses',
  );
  fails('10.0.0.0/24,fd00::/112,fd01::/112', '--service-cluster-ip-range must not contain more than two entries');
  fails('10.0.0.0/24,10.1.0.0/24', '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
  fails('10.0.0.0/8', 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
  fails('10.0.0.0/24,fd00::/64', 'specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108');
});

test('node port ranges in the three notations, with utilnet messages', () => {
  assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
  assert.deepEqual(parsePortRange(' 30000+10 '), { base: 30000, size: 11 });
  assert.deepEqual(parsePortRange('30000'), { base: 30000, size: 1 });
  assert.equal(formatPortRange({ base: 30000, size: 2768 }), '30000-32767');
  assert.throws(() => parsePortRange('a-b'), { message: 'strconv.Atoi: parsing "a": invalid syntax' });
  assert.throws(() => parsePortRange('1-2+3'), { message: 'unable to parse port range: 1-2+3' });
  assert.throws(() => parsePortRange('30000-70000'), { message: 'the port range cannot be greater than 65535: 30000-70000' });
  assert.throws(() => parsePortRange('300-200'), { message: 'end port cannot be less than start port: 300-200' });
});
