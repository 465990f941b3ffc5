/**
 * docker-compose.yml is valid and describes the HA shape: `docker compose config` where the compose
 * plugin exists; everywhere, a schema check of the parts compose relies on (service keys, references
 * between services and volumes, files it mounts or builds from, port syntax) and of the shape itself
 * (3 etcd members, replicas behind orch-proxy, 2 controller managers), with every orch command line
 * parsed by its binary's own flag table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Command } from '../../../apiserver/component-base/cli/command.js';
import { proxyCommand } from '../../../apiserver/frontdoor/options.js';
import { apiserverCommand } from '../../../apiserver/server/options.js';
import { controllerManagerCommand } from '../../../controllers/app/options.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const FILE = join(ROOT, 'docker-compose.yml');

/** The service keys this file may use (a subset of the compose specification's). */
const SERVICE_KEYS = new Set([
  'image',
  'build',
  'entrypoint',
  'command',
  'environment',
  'volumes',
  'depends_on',
  'ports',
  'restart',
  'healthcheck',
  'hostname',
  'stop_grace_period',
]);
const RESTART = new Set(['no', 'always', 'on-failure', 'unless-stopped']);
const BINARIES: Record<string, Command<unknown>> = {
  'dist/apiserver/cmd/apiserver.js': apiserverCommand as Command<unknown>,
  'dist/apiserver/cmd/proxy.js': proxyCommand as Command<unknown>,
  'dist/controllers/cmd/controller-manager.js': controllerManagerCommand as Command<unknown>,
};

interface Service {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  restart?: string;
  [key: string]: unknown;
}

interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const compose = parse(readFileSync(FILE, 'utf8'), { merge: true }) as Compose;
const services = compose.services;

test('docker compose config accepts the file (where the compose plugin exists)', (t) => {
  const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    t.diagnostic('no docker compose here: the schema checks below stand in for it');
    return;
  }
  const r = spawnSync('docker', ['compose', '-f', FILE, 'config', '--quiet'], { encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
});

test('every service uses only known keys, valid values and existing references', () => {
  for (const [name, s] of Object.entries(services)) {
    for (const key of Object.keys(s)) assert.ok(SERVICE_KEYS.has(key), `${name}: unknown key ${key}`);
    assert.ok(s.image || s.build, `${name}: neither image nor build`);
    if (s.build) {
      assert.ok(existsSync(join(ROOT, s.build.context)), `${name}: build context ${s.build.context}`);
      if (s.build.dockerfile) assert.ok(existsSync(join(ROOT, s.build.context, s.build.dockerfile)), `${name}: ${s.build.dockerfile}`);
    }
    if (s.restart !== undefined) assert.ok(RESTART.has(s.restart), `${name}: restart ${s.restart}`);
    // The image's entrypoint is orch-apiserver: a service built from it that gives `node …` sets it aside.
    if (s.build && s.command?.[0] === 'node') assert.deepEqual(s.entrypoint, [], `${name}: entrypoint [] before a node command`);
    if (s.command !== undefined) {
      assert.ok(Array.isArray(s.command) && s.command.every((a) => typeof a === 'string'), `${name}: command is not a list of strings`);
    }
    const deps = Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
    for (const dep of deps) assert.ok(services[dep], `${name}: depends on unknown service ${dep}`);
    for (const [dep, cond] of Array.isArray(s.depends_on) ? [] : Object.entries(s.depends_on ?? {})) {
      assert.ok(['service_started', 'service_healthy', 'service_completed_successfully'].includes(cond.condition), `${name} → ${dep}`);
      if (cond.condition === 'service_healthy') assert.ok(services[dep].healthcheck, `${name}: ${dep} has no healthcheck`);
    }
    for (const volume of s.volumes ?? []) {
      const source = volume.split(':')[0];
      if (source.startsWith('.') || source.startsWith('/')) assert.ok(existsSync(join(ROOT, source)), `${name}: mounts missing ${source}`);
      else assert.ok(compose.volumes && source in compose.volumes, `${name}: volume ${source} is not declared`);
    }
    for (const port of s.ports ?? []) assert.match(port, /^(\d+\.\d+\.\d+\.\d+:)?\d+:\d+$/, `${name}: port ${port}`);
  }
});

/** An orch binary's command line, `node [node options] <binary> [args]`; undefined for anything else. */
function commandOf(s: Service): { binary: string; args: string[] } | undefined {
  if (s.command?.[0] !== 'node') return undefined;
  const at = s.command.findIndex((a, i) => i > 0 && !a.startsWith('--'));
  return at > 0 && s.command[at] in BINARIES ? { binary: s.command[at], args: s.command.slice(at + 1) } : undefined;
}

test('the shape: 3 etcd members, replicas behind orch-proxy, 2 controller managers', () => {
  const byBinary = (binary: string) => Object.entries(services).filter(([, s]) => commandOf(s)?.binary === binary);
  const etcd = Object.keys(services).filter((n) => services[n].image?.includes('etcd'));
  assert.equal(etcd.length, 3, 'etcd members');

  const flag = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const replicas = byBinary('dist/apiserver/cmd/apiserver.js');
  assert.ok(replicas.length >= 2, 'API server replicas');
  for (const [name, s] of replicas) {
    const args = commandOf(s)!.args;
    assert.deepEqual(
      flag(args, 'etcd-servers')
        ?.split(',')
        .map((u) => new URL(u).hostname),
      etcd,
      `${name}: --etcd-servers`,
    );
    assert.ok(flag(args, 'requestheader-client-ca-file'), `${name}: trusts no front door`);
    assert.equal(s.ports, undefined, `${name} is published: clients must come through the front door`);
  }

  const proxies = byBinary('dist/apiserver/cmd/proxy.js');
  assert.equal(proxies.length, 1, 'one front door');
  const [, proxy] = proxies[0];
  const backends = flag(commandOf(proxy)!.args, 'backends')
    ?.split(',')
    .map((u) => new URL(u).hostname);
  assert.deepEqual(backends, replicas.map(([n]) => n).sort());
  assert.ok(
    proxy.ports?.some((p) => p.endsWith(':6443')),
    'the front door publishes 6443',
  );

  assert.equal(byBinary('dist/controllers/cmd/controller-manager.js').length, 2, 'controller managers');
});

test('every orch command line parses with its binary flag table', () => {
  let checked = 0;
  for (const [name, s] of Object.entries(services)) {
    const command = commandOf(s);
    if (!command) continue;
    assert.doesNotThrow(() => BINARIES[command.binary].options(command.args), `${name}: ${s.command!.join(' ')}`);
    checked++;
  }
  assert.ok(checked >= 5, `${checked} orch command lines`);
});
