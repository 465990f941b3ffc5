import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cidrContains,
  cidrSize,
  familyOf,
  formatCIDR,
  formatIP,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  parseCIDR,
  parseIP,
} from '../../../../../apiserver/registry/shared/network/ip.js';

test('IPv4 parses like ParseIPSloppy: four decimal parts, leading zeros allowed', () => {
  assert.deepEqual(parseIP('10.0.0.1'), { family: 'IPv4', value: 0x0a000001n });
  assert.deepEqual(parseIP('010.000.000.001'), { family: 'IPv4', value: 0x0a000001n });
  for (const bad of ['10.0.0', '10.0.0.256', '10.0.0.1.2', '1e.0.0.1', '', ' 10.0.0.1', '10.0.0.-1']) assert.equal(parseIP(bad), null, bad);
});

test('IPv6 parses with ::, embedded IPv4 and mapped IPv4 (which counts as IPv4)', () => {
  assert.deepEqual(parseIP('::1'), { family: 'IPv6', value: 1n });
  assert.deepEqual(parseIP('::'), { family: 'IPv6', value: 0n });
  assert.equal(parseIP('2001:db8::ff00:42:8329')?.value, 0x20010db8000000000000ff0000428329n);
  assert.equal(parseIP('64:ff9b::1.2.3.4')?.value, (0x64ff9bn << 96n) | 0x01020304n);
  assert.deepEqual(parseIP('::ffff:10.1.2.3'), { family: 'IPv4', value: 0x0a010203n });
  for (const bad of [':::', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', '12345::', 'fe80::1%eth0', '1.2.3.4::', ':1::']) {
    assert.equal(parseIP(bad), null, bad);
  }
  assert.equal(familyOf('fd00::5'), 'IPv6');
  assert.equal(familyOf('nope'), undefined);
});

test('addresses print as Go does (RFC 5952 for IPv6)', () => {
  for (const [input, want] of [
    ['010.0.0.1', '10.0.0.1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:0:1:1:1:1:1:1', '1:0:1:1:1:1:1:1'],
    ['::', '::'],
    ['fd00::10', 'fd00::10'],
  ]) {
    assert.equal(formatIP(parseIP(input)!), want, input);
  }
});

test('CIDRs: host bits cleared, sizes, membership', () => {
  const v4 = parseCIDR('10.0.0.7/24')!;
  assert.equal(formatCIDR(v4), '10.0.0.0/24');
  assert.equal(cidrSize(v4), 256n);
  assert.ok(cidrContains(v4, parseIP('10.0.0.255')!));
  assert.ok(!cidrContains(v4, parseIP('10.0.1.0')!));
  const v6 = parseCIDR('fd00::1/112')!;
  assert.equal(formatCIDR(v6), 'fd00::/112');
  assert.equal(cidrSize(v6), 65536n);
  assert.ok(!cidrContains(v6, parseIP('10.0.0.1')!));
  for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.0.0.0/x', 'fd00::/129', '10.0.0/24', '/24']) assert.equal(parseCIDR(bad), null, bad);
});

test('special ranges as Go classifies them', () => {
  const ip = (s: string) => parseIP(s)!;
  assert.ok(isUnspecified(ip('0.0.0.0')) && isUnspecified(ip('::')));
  assert.ok(isLoopback(ip('127.1.2.3')) && isLoopback(ip('::1')) && !isLoopback(ip('128.0.0.1')));
  assert.ok(
    isLinkLocalUnicast(ip('169.254.1.1')) &&
      isLinkLocalUnicast(ip('fe80::1')) &&
      isLinkLocalUnicast(ip('febf::1')) &&
      !isLinkLocalUnicast(ip('fec0::1')),
  );
  assert.ok(isLinkLocalMulticast(ip('224.0.0.5')) && !isLinkLocalMulticast(ip('224.0.1.5')));
  assert.ok(isLinkLocalMulticast(ip('ff02::1')) && isLinkLocalMulticast(ip('ff12::1')) && !isLinkLocalMulticast(ip('ff05::1')));
});
