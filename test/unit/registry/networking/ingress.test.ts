import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { ingressStatusStrategy, ingressStrategy } from '../../../../apiserver/registry/networking/ingress/strategy.js';
import { ingressColumns } from '../../../../apiserver/registry/networking/ingress/columns.js';
import { ingressClassStrategy } from '../../../../apiserver/registry/networking/ingressclass/strategy.js';
import { ingressClassColumns } from '../../../../apiserver/registry/networking/ingressclass/columns.js';

const ctx = { domain: newApiDomain(), now: new Date() };
const obj = (spec: unknown, extra: Partial<ApiObject> = {}): ApiObject => ({ metadata: { name: 'x', namespace: 'ns' }, spec, ...extra });
const backend = { service: { name: 'web', port: { number: 80 } } };
const check = (o: ApiObject) => ingressStrategy.validate!(o, ctx).map(errorMessage);

describe('Ingress', () => {
  it('accepts rules and a default backend', () => {
    assert.deepEqual(
      check(
        obj({
          ingressClassName: 'nginx',
          defaultBackend: backend,
          tls: [{ hosts: ['*.example.com'], secretName: 'tls' }],
          rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }],
        }),
      ),
      [],
    );
  });

  it('needs rules or a default backend, and one valid backend per path', () => {
    assert.deepEqual(check(obj({})), ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified']);
    const paths = [
      { path: '/a', pathType: 'Exact' },
      { path: '/b', pathType: 'Prefix', backend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } },
      { path: '/c', pathType: 'Prefix', backend: { service: { name: '1web', port: { name: 'http', number: 80 } } } },
      { path: '/d', pathType: 'Prefix', backend: { service: { port: {} } } },
      { path: '/e', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'HTTP' } } } },
      { path: '/f', pathType: 'Prefix', backend: { resource: { apiGroup: 'Example.com', kind: '', name: 'a/b' } } },
    ];
    assert.deepEqual(check(obj({ rules: [{ http: { paths } }] })), [
      'spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required',
      'spec.rules[0].http.paths[1].backend: Invalid value: "": cannot set both resource and service backends',
      "spec.rules[0].http.paths[2].backend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both port name & port number',
      'spec.rules[0].http.paths[3].backend.service.name: Required value',
      'spec.rules[0].http.paths[3].backend: Required value: port name or number is required',
      'spec.rules[0].http.paths[4].backend.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.rules[0].http.paths[4].backend.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)',
      "spec.rules[0].http.paths[5].backend.resource.apiGroup: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.rules[0].http.paths[5].backend.resource.kind: Required value',
      'spec.rules[0].http.paths[5].backend.resource.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
  });

  it('path types and paths', () => {
    const paths = [
      { path: 'a', backend },
      { path: 'a//b/./c/', pathType: 'Exact', backend },
      { path: '/x/..', pathType: 'Prefix', backend },
      { path: 'rel', pathType: 'ImplementationSpecific', backend },
      { path: '', pathType: 'ImplementationSpecific', backend },
      { path: '/', pathType: 'Regex', backend },
    ];
    assert.deepEqual(check(obj({ rules: [{ host: '1.2.3.4', http: { paths } }, { host: 'a.*.com' }, { http: { paths: [] } }] })), [
      'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
      'spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
      'spec.rules[0].http.paths[1].path: Invalid value: "a//b/./c/": must be an absolute path',
      'spec.rules[0].http.paths[1].path: Invalid value: "a//b/./c/": must not contain \'//\'',
      'spec.rules[0].http.paths[1].path: Invalid value: "a//b/./c/": must not contain \'/./\'',
      'spec.rules[0].http.paths[2].path: Invalid value: "/x/..": cannot end with \'/..\'',
      'spec.rules[0].http.paths[3].path: Invalid value: "rel": must be an absolute path',
      'spec.rules[0].http.paths[5].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      "spec.rules[1].host: Invalid value: \"a.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.rules[2].http.paths: Required value',
    ]);
  });

  it('tls, class name and the class annotation (checked on create only)', () => {
    const created = obj({ defaultBackend: backend, ingressClassName: 'Nginx', tls: [{ hosts: ['A.com'], secretName: 'Tls' }] }, {});
    created.metadata.annotations = { 'orch.io/ingress.class': 'other' };
    const messages = check(created);
    assert.equal(messages.length, 4);
    assert.match(messages[0], /^spec\.tls\[0\]\.hosts\[0\]: Invalid value: "A\.com": a lowercase RFC 1123 subdomain/);
    assert.match(messages[1], /^spec\.tls\[0\]\.secretName: Invalid value: "Tls": a lowercase RFC 1123 subdomain/);
    assert.match(messages[2], /^spec\.ingressClassName: Invalid value: "Nginx": a lowercase RFC 1123 subdomain/);
    assert.equal(
      messages[3],
      'annotations.orch.io/ingress.class: Invalid value: "other": must match `ingressClassName` when both are specified',
    );
    assert.deepEqual(ingressStrategy.validateUpdate!(created, created, ctx).map(errorMessage), messages.slice(0, 3));
  });

  it('status: load-balancer IPs and hostnames', () => {
    const o = obj({ defaultBackend: backend }, { status: { loadBalancer: { ingress: [{ ip: 'x' }, { hostname: '1.2.3.4' }] } } });
    assert.deepEqual(ingressStatusStrategy.validateUpdate!(o, o, ctx).map(errorMessage), [
      'status.loadBalancer.ingress[0].ip: Invalid value: "x": must be a valid IP address',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
    ]);
  });

  it('prints like kubectl get ingress', () => {
    const row = (o: ApiObject) => ingressColumns.slice(0, 4).map((c) => c.cell(o, new Date()));
    assert.deepEqual(row(obj({ defaultBackend: backend })), ['<none>', '*', '', '80']);
    const rules = [{ host: 'a.com' }, {}, { host: 'b.com' }, { host: 'c.com' }, { host: 'd.com' }];
    assert.deepEqual(
      row(
        obj(
          { ingressClassName: 'nginx', rules, tls: [{}] },
          { status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }] } } },
        ),
      ),
      ['nginx', 'a.com,b.com,c.com + 2 more...', '10.0.0.2,lb.example.com', '80, 443'],
    );
  });
});

describe('IngressClass', () => {
  const check = (o: ApiObject) => {
    ingressClassStrategy.applyDefaults!(o, ctx);
    return ingressClassStrategy.validate!(o, ctx).map(errorMessage);
  };
  const klass = (spec: unknown): ApiObject => ({ metadata: { name: 'nginx' }, spec });

  it('controller and parameters, with the scope defaulted to Cluster', () => {
    const ok = klass({ controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p' } });
    assert.deepEqual(check(ok), []);
    assert.equal((ok.spec as { parameters: { scope: string } }).parameters.scope, 'Cluster');
    assert.deepEqual(check(klass({})), ['spec.controller: Required value']);
    assert.deepEqual(check(klass({ controller: `example.com/${'x'.repeat(250)}` })), [
      'spec.controller: Too long: may not be more than 250 bytes',
    ]);
    assert.deepEqual(
      check(klass({ controller: 'example.com/x', parameters: { kind: 'a/b', name: '', scope: 'Cluster', namespace: 'ns' } })),
      [
        'spec.parameters.kind: Invalid value: "a/b": may not contain \'/\'',
        'spec.parameters.name: Required value',
        "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
      ],
    );
    assert.deepEqual(check(klass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } })), [
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
    assert.deepEqual(check(klass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Global' } })), [
      'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
    ]);
  });

  it('keeps the controller on update', () => {
    const errs = ingressClassStrategy.validateUpdate!(klass({ controller: 'b.com/x' }), klass({ controller: 'a.com/x' }), ctx).map(
      errorMessage,
    );
    assert.deepEqual(errs, ['spec.controller: Invalid value: "b.com/x": field is immutable']);
  });

  it('prints controller and parameters', () => {
    const row = (o: ApiObject) => ingressClassColumns.slice(0, 2).map((c) => c.cell(o, new Date()));
    assert.deepEqual(row(klass({ controller: 'a.com/x' })), ['a.com/x', '<none>']);
    assert.deepEqual(row(klass({ controller: 'a.com/x', parameters: { apiGroup: 'k8s.example.com', kind: 'P', name: 'n' } })), [
      'a.com/x',
      'P.k8s.example.com/n',
    ]);
  });
});
