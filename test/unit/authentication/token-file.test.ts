import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newBearerTokenAuthenticator } from '../../../apiserver/authentication/bearer-token.js';
import { newTokenFileAuthenticator, parseTokenFile } from '../../../apiserver/authentication/token-file.js';
import { AuthenticationError } from '../../../apiserver/authentication/interfaces.js';

function request(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

test('parses tokens, users, uids and quoted group lists; skips comments and blank lines', () => {
  const text = [
    '# token,user,uid,groups',
    'abc123,admin,admin-uid,"system:masters,devs"',
    '',
    '  def456, bob ,,ops',
    'ghi789,carol,carol-uid',
    '"quo""ted",dave,dave-uid,""',
  ].join('\n');
  assert.deepEqual(parseTokenFile(text, 'tokens.csv'), [
    { token: 'abc123', line: 2, user: { name: 'admin', uid: 'admin-uid', groups: ['system:masters', 'devs'] } },
    { token: 'def456', line: 4, user: { name: 'bob ', groups: ['ops'] } },
    { token: 'ghi789', line: 5, user: { name: 'carol', uid: 'carol-uid', groups: [] } },
    { token: 'quo"ted', line: 6, user: { name: 'dave', uid: 'dave-uid', groups: [] } },
  ]);
});

test('a malformed line is an error naming the file and line', () => {
  const bad: Array<[string, RegExp]> = [
    ['ok,a,1\nonly,two', /^token file "t.csv" line 2: must have at least 3 columns \(token, user name, user uid\), found 2$/],
    ['ok,a,1\n\n,nobody,1', /line 3: empty token$/],
    ['tok,,1', /line 1: empty user name$/],
    ['tok,a,1,"g1,g2', /line 1: unterminated quoted field$/],
    ['tok,a,1\ntok,b,2', /line 2: duplicate token \(first on line 1\)$/],
    ['t"ok,a,1', /line 1: bare " in non-quoted field$/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseTokenFile(text, 't.csv'), { message });
});

test('accepts the tokens of the file through the bearer-token authenticator', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-tokens-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tokens.csv');
  writeFileSync(file, 'secret-token,admin,admin,"system:masters"\n');
  const authn = newBearerTokenAuthenticator(newTokenFileAuthenticator(file));

  assert.deepEqual(await authn.authenticate(request('Bearer secret-token')), { name: 'admin', uid: 'admin', groups: ['system:masters'] });
  assert.deepEqual((await authn.authenticate(request('bearer secret-token')))?.name, 'admin');
  assert.equal(await authn.authenticate(request()), null);
  const rejected = (message: string) => (err: unknown) => err instanceof AuthenticationError && err.message === message;
  await assert.rejects(authn.authenticate(request('Bearer wrong')), rejected('invalid bearer token'));
  await assert.rejects(authn.authenticate(request('Basic YWRtaW46YWRtaW4=')), rejected('invalid Authorization header: not a bearer token'));
  await assert.rejects(authn.authenticate(request('Bearer ')), rejected('invalid Authorization header: not a bearer token'));
  await assert.rejects(
    authn.authenticate(request('Bearer  secret-token')),
    rejected('invalid Authorization header: malformed bearer token'),
  );
  await assert.rejects(authn.authenticate(request('Bearer a b')), rejected('invalid Authorization header: malformed bearer token'));
  await assert.rejects(authn.authenticate(request(`Bearer ${'x'.repeat(70_000)}`)), rejected('invalid bearer token: too long'));
  await assert.rejects(authn.authenticate(request('Bearer a\x01b')), rejected('invalid bearer token: control characters'));
});

test('a bad file fails at construction', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-tokens-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tokens.csv');
  writeFileSync(file, 'a,b\n');
  assert.throws(() => newTokenFileAuthenticator(file), /line 1: must have at least 3 columns/);
  assert.throws(() => newTokenFileAuthenticator(join(dir, 'missing.csv')), /ENOENT/);
});
