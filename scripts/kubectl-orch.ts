#!/usr/bin/env node
/**
 * kubectl-orch: the kubectl plugin of orch's revision ledger (`kubectl orch …` once on the PATH).
 * It talks to the API through `kubectl get --raw` / `kubectl create --raw`, so the kubeconfig,
 * contexts and credentials are kubectl's own.
 *
 *   kubectl orch history TYPE/NAME [-n NS]            the object's revisions, newest first
 *   kubectl orch diff TYPE/NAME --from RV --to RV     unified diff of the YAML at two revisions
 *   kubectl orch deleted [-n NS | -A]                 what was deleted within the retention window
 *   kubectl orch restore TYPE/NAME [-n NS]            put a deleted object (or a namespace) back
 *
 * Colour: on a terminal, or with --color (--color=false turns it off).
 */
import { spawnSync } from 'node:child_process';
import { stringify } from 'yaml';

const KUBECTL = process.env.ORCH_KUBECTL || 'kubectl';
/** kubectl's flags that say which cluster and user: passed on to every kubectl call. */
const PASSED = new Set(['--kubeconfig', '--context', '--cluster', '--user', '--server', '--token', '--certificate-authority']);

interface Args {
  command: string;
  target?: string;
  namespace?: string;
  allNamespaces: boolean;
  from?: string;
  to?: string;
  color: boolean;
  kubectl: string[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { command: '', allNamespaces: false, color: !!process.stdout.isTTY, kubectl: [] };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '-n' || flag === '--namespace') a.namespace = value();
    else if (flag === '-A' || flag === '--all-namespaces') a.allNamespaces = true;
    else if (flag === '--from') a.from = value();
    else if (flag === '--to') a.to = value();
    else if (flag === '--color') a.color = inline === undefined ? true : inline !== 'false';
    else if (PASSED.has(flag)) a.kubectl.push(`${flag}=${value()}`);
    else if (arg.startsWith('-')) fail(`unknown flag: ${arg}`);
    else positional.push(arg);
  }
  a.command = positional[0] ?? '';
  a.target = positional[1];
  return a;
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function kubectl(a: Args, args: string[], input?: string): string {
  const r = spawnSync(KUBECTL, [...a.kubectl, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) fail(`running ${KUBECTL}: ${r.error.message}`);
  if (r.status !== 0) {
    process.stderr.write(r.stderr);
    process.exit(r.status ?? 1);
  }
  return r.stdout;
}

/** A JSON answer read as T: the shapes below are the server's documented ones (README, history.orch.io). */
function getRaw<T>(a: Args, path: string): T {
  const parsed: T = JSON.parse(kubectl(a, ['get', '--raw', path]));
  return parsed;
}

interface PatchOp {
  op: string;
  path: string;
}
interface Revision {
  resourceVersion: string;
  time: string;
  operation: string;
  user: string;
  fieldManager?: string;
  patch: PatchOp[];
}
interface Deleted {
  target: { group: string; resource: string; namespace?: string; name: string; uid: string };
  deletion: { time: string; user: string; lastResourceVersion: string };
}
interface Page<T> {
  items: T[];
  metadata?: { continue?: string };
}

/** The namespace to use: -n, else the kubeconfig context's, else default. */
function namespaceOf(a: Args): string {
  if (a.namespace) return a.namespace;
  const ns = kubectl(a, ['config', 'view', '--minify', '-o', 'jsonpath={..namespace}']).trim();
  return ns || 'default';
}

interface Resource {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** TYPE of TYPE/NAME (plural, singular, short name or kind, optionally .group) as the server's discovery says. */
function resolve(a: Args, type: string): Resource {
  const lines = kubectl(a, ['api-resources', '--no-headers']).split('\n').filter(Boolean);
  const want = type.toLowerCase();
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    // NAME [SHORTNAMES] APIVERSION NAMESPACED KIND
    const [name, shorts, apiVersion, namespaced, kind] = f.length >= 5 ? f : [f[0], '', f[1], f[2], f[3]];
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const names = [name, kind.toLowerCase(), ...shorts.split(',').filter(Boolean)];
    const qualified = names.map((n) => (group ? `${n}.${group}` : n));
    if (names.includes(want) || qualified.includes(want)) return { group, version, plural: name, kind, namespaced: namespaced === 'true' };
  }
  return fail(`the server doesn't have a resource type "${type}"`);
}

function targetOf(a: Args): { r: Resource; name: string; namespace: string } {
  const [type, name] = (a.target ?? '').split('/');
  if (!type || !name) fail('a TYPE/NAME is required (e.g. deploy/web)');
  const r = resolve(a, type);
  return { r, name, namespace: r.namespaced ? namespaceOf(a) : '' };
}

function objectPath(t: { r: Resource; name: string; namespace: string }): string {
  const base = t.r.group ? `/apis/${t.r.group}/${t.r.version}` : `/api/${t.r.version}`;
  return `${base}${t.namespace ? `/namespaces/${t.namespace}` : ''}/${t.r.plural}/${t.name}`;
}

/** The history group: history.<domain> (history.orch.io, or history.k8s.io with --api-domain=k8s.io). */
function historyGroup(a: Args): string {
  const groups = getRaw<{ groups?: { name: string }[] }>(a, '/apis').groups ?? [];
  const g = groups.find((x) => /^history\./.test(x.name));
  if (!g) fail('the server serves no history group (is --history-retention on?)');
  return g.name;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return `${rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] + 3))).join('')).join('\n')}\n`;
}

function summary(patch: PatchOp[]): string {
  if (patch.length === 0) return '';
  if (patch.length === 1 && patch[0].path === '') return '(whole object)';
  const paths = patch.map((p) => `${p.op} ${p.path}`);
  return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} (+${paths.length - 3})` : paths.join(', ');
}

function history(a: Args): void {
  const t = targetOf(a);
  const rows = [['RESOURCEVERSION', 'TIME', 'OPERATION', 'USER', 'FIELDMANAGER', 'CHANGE']];
  let token = '';
  do {
    const list = getRaw<Page<Revision>>(a, `${objectPath(t)}/history${token ? `?continue=${encodeURIComponent(token)}` : ''}`);
    for (const i of list.items)
      rows.push([i.resourceVersion, i.time, i.operation, i.user || '-', i.fieldManager ?? '-', summary(i.patch) || '-']);
    token = list.metadata?.continue ?? '';
  } while (token);
  process.stdout.write(table(rows));
}

/** A line diff (longest common subsequence), as unified hunks with 3 lines of context. */
function unifiedDiff(from: string[], to: string[], labels: [string, string]): string[] {
  const n = from.length;
  const m = to.length;
  // The YAML of one object is at most a few thousand lines: an n×m table is small.
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = from[i] === to[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: { t: ' ' | '-' | '+'; line: string; i: number; j: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && from[i] === to[j]) ops.push({ t: ' ', line: from[i++], i, j: j++ });
    else if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push({ t: '+', line: to[j++], i, j });
    else ops.push({ t: '-', line: from[i++], i, j });
  }
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  const changed = ops.map((o, k) => (o.t !== ' ' ? k : -1)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - 3);
    let end = changed[k];
    while (k < changed.length && changed[k] <= end + 6) end = changed[k++];
    const stop = Math.min(ops.length, end + 4);
    const hunk = ops.slice(start, stop);
    const fromStart = hunk[0].t === '+' ? hunk[0].i : hunk[0].i - 1;
    const toStart = hunk[0].t === '-' ? hunk[0].j : hunk[0].j - 1;
    const fromLen = hunk.filter((o) => o.t !== '+').length;
    const toLen = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${fromStart + 1},${fromLen} +${toStart + 1},${toLen} @@`);
    for (const o of hunk) out.push(`${o.t}${o.line}`);
  }
  return out;
}

function colour(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return `\x1b[1m${line}\x1b[0m`;
  if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[0m`;
  if (line.startsWith('+')) return `\x1b[32m${line}\x1b[0m`;
  if (line.startsWith('-')) return `\x1b[31m${line}\x1b[0m`;
  return line;
}

function diff(a: Args): void {
  const t = targetOf(a);
  if (!a.from || !a.to) fail('diff needs --from RV and --to RV');
  const at = (rv: string) => stringify(getRaw(a, `${objectPath(t)}/history?resourceVersion=${encodeURIComponent(rv)}`)).split('\n');
  const lines = unifiedDiff(at(a.from), at(a.to), [`${a.target}@${a.from}`, `${a.target}@${a.to}`]);
  if (lines.length > 2) process.stdout.write(`${lines.map((l) => (a.color ? colour(l) : l)).join('\n')}\n`);
}

function deleted(a: Args): void {
  const g = historyGroup(a);
  const base = a.allNamespaces ? `/apis/${g}/v1/deletedobjects` : `/apis/${g}/v1/namespaces/${namespaceOf(a)}/deletedobjects`;
  const rows = [['NAMESPACE', 'KIND', 'NAME', 'UID', 'DELETED', 'BY', 'RESOURCEVERSION']];
  let token = '';
  do {
    const list = getRaw<Page<Deleted>>(a, `${base}${token ? `?continue=${encodeURIComponent(token)}` : ''}`);
    for (const i of list.items) {
      const kind = i.target.group ? `${i.target.resource}.${i.target.group}` : i.target.resource;
      rows.push([
        i.target.namespace ?? '-',
        kind,
        i.target.name,
        i.target.uid,
        i.deletion.time,
        i.deletion.user || '-',
        i.deletion.lastResourceVersion,
      ]);
    }
    token = list.metadata?.continue ?? '';
  } while (token);
  if (rows.length === 1) process.stdout.write('No deleted objects found.\n');
  else process.stdout.write(table(rows));
}

function restore(a: Args): void {
  const g = historyGroup(a);
  const t = targetOf(a);
  const body = {
    apiVersion: `${g}/v1`,
    kind: 'Restore',
    metadata: { name: `${t.r.plural}.${t.name}` },
    spec: { group: t.r.group, resource: t.r.plural, name: t.name, ...(t.namespace ? { namespace: t.namespace } : {}) },
  };
  const out = JSON.parse(kubectl(a, ['create', '--raw', `/apis/${g}/v1/restores`, '-f', '-'], JSON.stringify(body)));
  for (const r of out.status?.restored ?? []) {
    const kind = r.kind.toLowerCase();
    process.stdout.write(`${kind}/${r.name}${r.namespace && r.kind !== 'Namespace' ? ` -n ${r.namespace}` : ''} restored (uid ${r.uid})\n`);
  }
  for (const r of out.status?.skipped ?? []) process.stdout.write(`${r.kind.toLowerCase()}/${r.name} skipped: ${r.message}\n`);
}

const COMMANDS: Record<string, (a: Args) => void> = { history, diff, deleted, restore };
const USAGE = `Usage: kubectl orch history TYPE/NAME | diff TYPE/NAME --from RV --to RV | deleted [-A] | restore TYPE/NAME [-n NS]\n`;

const args = parseArgs(process.argv.slice(2));
const run = COMMANDS[args.command];
if (!run) {
  process.stderr.write(USAGE);
  process.exit(args.command === '' || args.command === 'help' ? 0 : 1);
}
run(args);
