import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo, splitRequestUrl } from '../../../apiserver/endpoints/request/request-info.js';
import { isApiError } from '../../../apiserver/api/status.js';

/** verb, group, resource, subresource, namespace, name (path or selected) of a request. */
function facts(method: string, url: string) {
  const i = parseRequestInfo(method, url);
  return {
    resource: i.isResourceRequest,
    verb: i.verb,
    group: i.apiGroup,
    version: i.apiVersion,
    res: i.resource,
    sub: i.subresource,
    ns: i.namespace,
    name: i.name || i.selectedName,
  };
}

test('request info: the verbs of Kubernetes 1.28', () => {
  const cases: [string, string, string][] = [
    ['GET', '/api/v1/namespaces/a/pods/p', 'get'],
    ['HEAD', '/api/v1/namespaces/a/pods/p', 'get'],
    ['GET', '/api/v1/namespaces/a/pods', 'list'],
    ['GET', '/api/v1/pods', 'list'],
    ['GET', '/api/v1/namespaces/a/pods?watch=true', 'watch'],
    ['GET', '/api/v1/namespaces/a/pods?watch=1', 'watch'],
    ['GET', '/api/v1/namespaces/a/pods?watch=false', 'list'],
    ['GET', '/api/v1/namespaces/a/pods?watch=0', 'list'],
    ['GET', '/api/v1/namespaces/a/pods?watch=yes', 'watch'],
    ['GET', '/api/v1/watch/namespaces/a/pods', 'watch'],
    ['GET', '/api/v1/watch/namespaces/a/pods/p', 'watch'],
    // A named GET is a get whatever ?watch says.
    ['GET', '/api/v1/namespaces/a/pods/p?watch=true', 'get'],
    ['POST', '/api/v1/namespaces/a/pods', 'create'],
    ['PUT', '/api/v1/namespaces/a/pods/p', 'update'],
    ['PATCH', '/api/v1/namespaces/a/pods/p', 'patch'],
    ['DELETE', '/api/v1/namespaces/a/pods/p', 'delete'],
    ['DELETE', '/api/v1/namespaces/a/pods', 'deletecollection'],
    ['OPTIONS', '/api/v1/namespaces/a/pods', ''],
    ['GET', '/healthz', 'get'],
    ['POST', '/some/path', 'post'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/apis/apps', 'get'],
  ];
  for (const [method, url, verb] of cases) assert.equal(facts(method, url).verb, verb, `${method} ${url}`);
});

test('request info: resource, subresource, namespace and name', () => {
  assert.deepEqual(facts('PUT', '/apis/apps/v1/namespaces/a/deployments/d/scale'), {
    resource: true,
    verb: 'update',
    group: 'apps',
    version: 'v1',
    res: 'deployments',
    sub: 'scale',
    ns: 'a',
    name: 'd',
  });
  assert.deepEqual(facts('GET', '/api/v1/namespaces/a'), {
    resource: true,
    verb: 'get',
    group: '',
    version: 'v1',
    res: 'namespaces',
    sub: '',
    ns: 'a',
    name: 'a',
  });
  const finalize = facts('PUT', '/api/v1/namespaces/a/finalize');
  assert.deepEqual([finalize.res, finalize.name, finalize.sub], ['namespaces', 'a', 'finalize']);
  const nodes = facts('GET', '/api/v1/nodes/n1/status');
  assert.deepEqual([nodes.res, nodes.name, nodes.sub, nodes.ns], ['nodes', 'n1', 'status', '']);
  assert.equal(facts('GET', '/apis/apps').resource, false);
  assert.equal(facts('GET', '/apis/apps/v1').resource, false);
  assert.equal(facts('GET', '/healthz').resource, false);
});

test('request info: a list or watch of one name by field selector names it', () => {
  assert.equal(facts('GET', '/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3Dp').name, 'p');
  assert.equal(facts('GET', '/api/v1/namespaces/a/pods?watch=1&fieldSelector=metadata.name%3Dp,metadata.namespace%3Da').name, 'p');
  assert.equal(facts('GET', '/api/v1/namespaces/a/pods?fieldSelector=metadata.name!%3Dp').name, '');
  assert.equal(facts('GET', '/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3D..').name, '');
  assert.equal(facts('GET', '/api/v1/namespaces/a/pods?fieldSelector=%3D%3D%3D').name, '');
  assert.equal(parseRequestInfo('GET', '/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3Dp').name, '');
});

test('request info: path segments are decoded', () => {
  assert.equal(facts('GET', '/api/v1/namespaces/a/configmaps/a%3Ab').name, 'a:b');
});

test('request info: what cannot be parsed is a 400', () => {
  for (const url of ['/api/v1/watch', '/apis/apps/v1/proxy', '/api/v1/namespaces/%zz/pods']) {
    assert.throws(
      () => parseRequestInfo('GET', url),
      (err: unknown) => isApiError(err, 'BadRequest') && err.status.code === 400,
      url,
    );
  }
});

test('request URL: path and query exactly as the WHATWG URL parser gives them', () => {
  const urls = [
    '/api/v1/namespaces/a/configmaps/c',
    '/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx&limit=5&watch=true',
    '/apis/apps/v1/namespaces/a/deployments/d/scale?dryRun=All&dryRun=All&pretty',
    '/api/v1/pods?fieldSelector=metadata.name=p+q&x=a%20b&y=%E2%9C%93&z=a b',
    '/api/v1/pods?a=1?b=2',
    '/api/v1/pods/',
    '/api/./v1/pods',
    '/api/v1/../v1/pods',
    '/api/v1/pods/..',
    '/api/v1/pods/.x',
    '//api/v1/pods',
    '/api/v1/namespaces/a%2Fb/pods',
    '/api/v1/pods#fragment',
    '/api/v1/pods?x=1#fragment',
    '/api\\v1\\pods',
    '/api/v1/"pods"<x>',
    "/api/v1/pods;x=1:@!$&'()*+,~",
    '/api/v1/p\u00e9ds?q=\u00e9',
    '/',
    '',
  ];
  for (const raw of urls) {
    const url = new URL(raw, 'http://x');
    const got = splitRequestUrl(raw);
    assert.equal(got.path, url.pathname, raw);
    assert.deepEqual([...got.query], [...url.searchParams], raw);
  }
});
