import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { newUnionAuthenticator } from '../../../apiserver/authentication/union.js';
import { newAnonymousAuthenticator } from '../../../apiserver/authentication/anonymous.js';
import { AuthenticationError, type RequestAuthenticator, type UserInfo } from '../../../apiserver/authentication/interfaces.js';

const req = {} as IncomingMessage;
const none: RequestAuthenticator = { authenticate: async () => null };
const user = (u: UserInfo): RequestAuthenticator => ({ authenticate: async () => u });
const reject = (message: string): RequestAuthenticator => ({
  authenticate: async () => {
    throw new AuthenticationError(message);
  },
});

test('anonymous authenticator', async () => {
  assert.deepEqual(await newAnonymousAuthenticator().authenticate(req), { name: 'system:anonymous', groups: ['system:unauthenticated'] });
});

test('the first authenticator that recognises the request wins and gains system:authenticated', async () => {
  const union = newUnionAuthenticator([none, user({ name: 'alice', uid: '1', groups: ['dev'] }), user({ name: 'bob', groups: [] })]);
  assert.deepEqual(await union.authenticate(req), { name: 'alice', uid: '1', groups: ['dev', 'system:authenticated'] });
});

test('system:authenticated is not added twice', async () => {
  const union = newUnionAuthenticator([user({ name: 'alice', groups: ['system:authenticated'] })]);
  assert.deepEqual((await union.authenticate(req))?.groups, ['system:authenticated']);
});

test('nobody recognising the request gives null', async () => {
  assert.equal(await newUnionAuthenticator([none, none]).authenticate(req), null);
  assert.equal(await newUnionAuthenticator([]).authenticate(req), null);
});

test('anonymous requests stay unauthenticated', async () => {
  const union = newUnionAuthenticator([none, newAnonymousAuthenticator()]);
  assert.deepEqual(await union.authenticate(req), { name: 'system:anonymous', groups: ['system:unauthenticated'] });
});

test('a rejected credential is not downgraded to anonymous', async () => {
  const union = newUnionAuthenticator([reject('invalid bearer token'), newAnonymousAuthenticator()]);
  await assert.rejects(
    union.authenticate(req),
    (err: unknown) => err instanceof AuthenticationError && err.message === 'invalid bearer token',
  );
});

test('another credential on the same request may still authenticate it', async () => {
  const union = newUnionAuthenticator([reject('bad certificate'), user({ name: 'alice', groups: [] })]);
  assert.equal((await union.authenticate(req))?.name, 'alice');
});

test('every rejection is reported when none accepts', async () => {
  const union = newUnionAuthenticator([reject('a'), none, reject('b')]);
  await assert.rejects(union.authenticate(req), { name: 'AuthenticationError', message: '[a, b]' });
});

test('internal errors propagate', async () => {
  const broken: RequestAuthenticator = {
    authenticate: async () => {
      throw new TypeError('bug');
    },
  };
  await assert.rejects(newUnionAuthenticator([broken, newAnonymousAuthenticator()]).authenticate(req), TypeError);
});
