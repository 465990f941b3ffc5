import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { Attributes, Authorizer } from '../../../../apiserver/authorization/interfaces.js';
import { setUser, userFrom } from '../../../../apiserver/endpoints/request/request-user.js';
import { parseRequestInfo, setRequestInfo } from '../../../../apiserver/endpoints/request/request-info.js';
import { withImpersonation } from '../../../../apiserver/server/filters/with-impersonation.js';

function request(headers: Record<string, string | string[]>): IncomingMessage {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const req = {
    rawHeaders: Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).flatMap((one) => [k, one])),
    headers: Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])),
    headersDistinct: Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
  } as unknown as IncomingMessage;
  setRequestInfo(req, parseRequestInfo('GET', '/api/v1/pods'));
  setUser(req, { name: 'alice', groups: ['system:authenticated'] });
  return req;
}

/** Allows what `allow` says, recording every question. */
function recorder(allow: (a: Attributes) => boolean) {
  const asked: string[] = [];
  const authorizer: Authorizer = {
    async authorize(a) {
      asked.push(`${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
      return { decision: allow(a) ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
  return { authorizer, asked };
}

const run = async (authorizer: Authorizer, req: IncomingMessage) => {
  let called = false;
  const handler = () => {
    called = true;
  };
  await withImpersonation(handler, authorizer, newApiDomain())(req, {} as ServerResponse);
  return called;
};

test('every value is its own impersonate check, the value as resource name', async () => {
  const { authorizer, asked } = recorder(() => true);
  const req = request({
    'Impersonate-User': 'system:serviceaccount:ns:bot',
    'Impersonate-Group': ['a,b', 'c'],
    'Impersonate-Uid': 'u1',
    'Impersonate-Extra-Scopes': ['x', 'y'],
  });
  assert.equal(await run(authorizer, req), true);
  assert.deepEqual(asked, [
    'impersonate /serviceaccounts ns/bot',
    'impersonate /groups /a,b',
    'impersonate /groups /c',
    'impersonate authentication.orch.io/uids /u1',
    'impersonate authentication.orch.io/userextras/scopes /x',
    'impersonate authentication.orch.io/userextras/scopes /y',
  ]);
  assert.deepEqual(userFrom(req), {
    name: 'system:serviceaccount:ns:bot',
    uid: 'u1',
    // Groups given are the whole list: no system:serviceaccounts groups (Kubernetes' groupsSpecified).
    groups: ['a,b', 'c', 'system:authenticated'],
    extra: { scopes: ['x', 'y'] },
  });
  assert.equal(req.headers['impersonate-user'], undefined);
});

test('a service account without Impersonate-Group gets its fixed groups', async () => {
  const { authorizer } = recorder(() => true);
  const req = request({ 'Impersonate-User': 'system:serviceaccount:ns:bot' });
  assert.equal(await run(authorizer, req), true);
  assert.deepEqual(userFrom(req), {
    name: 'system:serviceaccount:ns:bot',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
  });
});

test('system:authenticated is not added when system:unauthenticated is among the groups given', async () => {
  const { authorizer } = recorder(() => true);
  const cases: [Record<string, string | string[]>, string[]][] = [
    [{ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:unauthenticated' }, ['system:unauthenticated']],
    [{ 'Impersonate-User': 'jane', 'Impersonate-Group': ['devs', 'system:authenticated'] }, ['devs', 'system:authenticated']],
    [{ 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' }, ['devs', 'system:authenticated']],
    [{ 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': 'devs' }, ['devs', 'system:unauthenticated']],
    [{ 'Impersonate-User': 'system:serviceaccount:ns:bot', 'Impersonate-Group': 'system:unauthenticated' }, ['system:unauthenticated']],
  ];
  for (const [headers, groups] of cases) {
    const req = request(headers);
    assert.equal(await run(authorizer, req), true);
    assert.deepEqual(userFrom(req).groups, groups, JSON.stringify(headers));
  }
});

test('an empty Impersonate-User or Impersonate-Uid is as if it were not sent', async () => {
  const { authorizer, asked } = recorder(() => true);
  const req = request({ 'Impersonate-User': '' });
  assert.equal(await run(authorizer, req), true);
  assert.deepEqual(userFrom(req), { name: 'alice', groups: ['system:authenticated'] });
  assert.deepEqual(asked, []);
  // With something else to impersonate it is a user missing.
  await assert.rejects(
    run(authorizer, request({ 'Impersonate-User': '', 'Impersonate-Group': 'devs' })),
    (e: { status: { code: number } }) => {
      assert.equal(e.status.code, 400);
      return true;
    },
  );
  const withUid = request({ 'Impersonate-User': 'jane', 'Impersonate-Uid': '' });
  assert.equal(await run(authorizer, withUid), true);
  assert.deepEqual(userFrom(withUid), { name: 'jane', groups: ['system:authenticated'] });
  assert.deepEqual(asked, ['impersonate /users /jane']);
});

test('one refused value refuses the request (resourceNames restrict what may be impersonated)', async () => {
  const { authorizer } = recorder((a) => a.resource !== 'groups' || a.name === 'devs');
  assert.equal(await run(authorizer, request({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' })), true);
  await assert.rejects(run(authorizer, request({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' })), {
    status: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      details: { name: 'system:masters', kind: 'groups' },
    },
  });
});

test('impersonating anonymous gives system:unauthenticated; no headers is a pass-through', async () => {
  const { authorizer, asked } = recorder(() => true);
  const req = request({ 'Impersonate-User': 'system:anonymous' });
  await run(authorizer, req);
  assert.deepEqual(userFrom(req).groups, ['system:unauthenticated']);
  const plain = request({});
  assert.equal(await run(authorizer, plain), true);
  assert.equal(userFrom(plain).name, 'alice');
  assert.equal(asked.length, 1);
});

test('any Impersonate-* header is seen, whatever its case; an extra without a user is a 400', async () => {
  const { authorizer } = recorder(() => true);
  const req = request({ 'IMPERSONATE-USER': 'jane' });
  assert.equal(await run(authorizer, req), true);
  assert.equal(userFrom(req).name, 'jane');
  await assert.rejects(run(authorizer, request({ 'Impersonate-Extra-Scopes': 'x' })), (e: { status: { code: number; reason: string } }) => {
    assert.deepEqual([e.status.code, e.status.reason], [400, 'BadRequest']);
    return true;
  });
});

test('a user name that is not exactly system:serviceaccount:<ns>:<name> is a plain user, checked with the whole name', async () => {
  // Allowed: impersonating the account team/nobody, nothing else.
  const { authorizer, asked } = recorder((a) => a.resource === 'serviceaccounts' && a.namespace === 'team' && a.name === 'nobody');
  const name = 'system:serviceaccount:team:nobody:system:masters';
  await assert.rejects(run(authorizer, request({ 'Impersonate-User': name })), (e: { status: { code: number; message: string } }) => {
    assert.equal(e.status.code, 403);
    assert.match(e.status.message, /cannot impersonate resource "users"/);
    return true;
  });
  assert.deepEqual(asked, [`impersonate /users /${name}`]);

  // Allowed as that user, it stays a user: no service-account groups.
  const anyone = recorder(() => true);
  for (const malformed of [
    name,
    'system:serviceaccount:team',
    'system:serviceaccount:Team:bot',
    'system:serviceaccount:team:',
    'system:serviceaccount::bot',
  ]) {
    const req = request({ 'Impersonate-User': malformed });
    assert.equal(await run(anyone.authorizer, req), true);
    assert.deepEqual(userFrom(req), { name: malformed, groups: ['system:authenticated'] });
  }
  assert.deepEqual(anyone.asked, [
    `impersonate /users /${name}`,
    'impersonate /users /system:serviceaccount:team',
    'impersonate /users /system:serviceaccount:Team:bot',
    'impersonate /users /system:serviceaccount:team:',
    'impersonate /users /system:serviceaccount::bot',
  ]);
});

test('a second Impersonate-User or Impersonate-Uid header is a 400, asked of nobody (Node would join them into one name)', async () => {
  const { authorizer, asked } = recorder(() => true);
  const cases: [Record<string, string | string[]>, string][] = [
    [{ 'Impersonate-User': ['jane', 'system:admin'] }, 'only one Impersonate-User header may be sent, got 2'],
    [{ 'Impersonate-User': 'jane', 'Impersonate-Uid': ['u1', 'u2'] }, 'only one Impersonate-Uid header may be sent, got 2'],
  ];
  for (const [headers, message] of cases) {
    const req = request(headers);
    await assert.rejects(run(authorizer, req), (e: { status: { code: number; reason: string; message: string } }) => {
      assert.deepEqual([e.status.code, e.status.reason, e.status.message], [400, 'BadRequest', message]);
      return true;
    });
    assert.equal(userFrom(req).name, 'alice');
  }
  assert.deepEqual(asked, []);
});
