import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../../apiserver/api/field-errors.js';
import {
  isDomainPrefixedPath,
  isFullyQualifiedDomainName,
  isValidIP,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  validateNonSpecialIP,
  validatePortNumOrName,
  validateProtocol,
} from '../../../../../apiserver/registry/shared/network/net-validation.js';

const messages = (errs: Parameters<typeof errorMessage>[0][]) => errs.map(errorMessage);

test('IPs and ports', () => {
  assert.deepEqual(isValidIP('10.1.2.3'), []);
  assert.deepEqual(isValidIP('10.1.2'), ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  assert.deepEqual(isValidPortNum(65535), []);
  assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortNum(65536), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortName('http-alt'), []);
  assert.deepEqual(isValidPortName('-Http--0123456789'), [
    'must be no more than 15 characters',
    'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'must not contain consecutive hyphens',
    'must not begin or end with a hyphen',
  ]);
  assert.deepEqual(isValidPortName('8080'), ['must contain at least one letter (a-z)']);
  assert.deepEqual(messages(validatePortNumOrName(0, 'p')), ['p: Invalid value: 0: must be between 1 and 65535, inclusive']);
  assert.deepEqual(messages(validatePortNumOrName('web', 'p')), []);
  assert.deepEqual(messages(validateProtocol(undefined, 'p')), ['p: Required value']);
  assert.deepEqual(messages(validateProtocol('ICMP', 'p')), ['p: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']);
});

test('non-special IPs', () => {
  assert.deepEqual(validateNonSpecialIP('10.1.2.3', 'ip'), []);
  assert.deepEqual(messages(validateNonSpecialIP('x', 'ip')), ['ip: Invalid value: "x": must be a valid IP address']);
  assert.deepEqual(messages(validateNonSpecialIP('0.0.0.0', 'ip')), ['ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
  assert.deepEqual(messages(validateNonSpecialIP('::1', 'ip')), [
    'ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
  ]);
  assert.deepEqual(messages(validateNonSpecialIP('169.254.169.254', 'ip')), [
    'ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
  ]);
  assert.deepEqual(messages(validateNonSpecialIP('224.0.0.1', 'ip')), [
    'ip: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
  ]);
});

test('DNS names: wildcards, fully qualified names, domain-prefixed paths', () => {
  assert.deepEqual(isWildcardDNS1123Subdomain('*.example.com'), []);
  assert.deepEqual(isWildcardDNS1123Subdomain('foo.*.com'), [
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  assert.deepEqual(isFullyQualifiedDomainName('db.example.com.', 'a'), []);
  assert.deepEqual(messages(isFullyQualifiedDomainName('', 'a')), ['a: Required value']);
  assert.deepEqual(messages(isFullyQualifiedDomainName('localhost', 'a')), [
    'a: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
  ]);
  assert.match(
    messages(isFullyQualifiedDomainName('Db.example', 'a'))[0],
    /^a: Invalid value: "Db.example": a lowercase RFC 1123 subdomain/,
  );
  assert.deepEqual(isDomainPrefixedPath('example.com/ingress-controller', 'c'), []);
  assert.deepEqual(messages(isDomainPrefixedPath('nginx', 'c')), [
    'c: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
  ]);
  assert.deepEqual(messages(isDomainPrefixedPath('example.com/a b', 'c')), [
    "c: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
  ]);
  assert.match(messages(isDomainPrefixedPath('Example.com/x', 'c'))[0], /^c: Invalid value: "Example.com": a lowercase RFC 1123 subdomain/);
});
