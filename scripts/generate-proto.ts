/**
 * Generates proto/k8s.io/**\/generated.proto, the protobuf messages orch serves, from the committed
 * field table proto/source/kubernetes-1.28-proto.json. Field numbers, types and labels are Kubernetes'
 * (the wire contract); each field also says how its JSON form is written, as options the codec reads:
 * `json_name` when the JSON key differs from the field name, and `(orch.go)` with Go's facts about the
 * field: `pointer` (a zero value is still a value), `omitempty` (a zero value is left out of JSON),
 * `inline` (the message's fields sit in the parent's JSON object).
 *
 *   npm run build && node dist/scripts/generate-proto.js
 *
 * Refreshing the committed table (once per Kubernetes version) reads the reference field numbers and
 * the Go types of a Kubernetes source checkout (a git directory; its HEAD is read), keeping the
 * packages the served kinds reach:
 *
 *   node dist/scripts/generate-proto.js --refresh <kubernetes-proto-fields.json> <kubernetes .git dir>
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { definitions } from '../apiserver/api/generated/definitions.js';
import { type FieldTable, type ProtoField, PROTO_DIR, PROTO_SOURCE, protoPackageOf } from '../apiserver/runtime/protobuf/field-table.js';

/** Packages served besides those the definitions reach: the views' v1beta1 list and CRDs. */
const EXTRA_PACKAGES = ['k8s.io.apimachinery.pkg.apis.meta.v1beta1', 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1'];
const ROOT_PACKAGES = ['k8s.io.apimachinery.pkg.runtime', 'k8s.io.apimachinery.pkg.apis.meta.v1'];

interface GoField {
  json: string;
  omitempty: boolean;
  pointer: boolean;
  inline: boolean;
}

/** Go struct fields with a protobuf tag, by type name and field number, from a package's .go files. */
function goFields(gitDir: string, goPackageDir: string): Map<string, Map<number, GoField>> {
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const files = git('ls-tree', '--name-only', 'HEAD', `${goPackageDir}/`)
    .split('\n')
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !/generated|zz_/.test(f));
  const out = new Map<string, Map<number, GoField>>();
  for (const file of files) {
    let current: Map<number, GoField> | undefined;
    for (const line of git('show', `HEAD:${file}`).split('\n')) {
      const start = /^type (\w+) struct \{/.exec(line);
      if (start) {
        current = new Map();
        out.set(start[1], current);
        continue;
      }
      if (line.startsWith('}')) current = undefined;
      const field = current && /^\s+(?:(\w+)\s+)?(\*?[\w.[\]*]+)\s+`([^`]*)`/.exec(line);
      if (!current || !field) continue;
      const json = /json:"([^"]*)"/.exec(field[3]);
      const proto = /protobuf:"[^,]*,(\d+),/.exec(field[3]);
      if (!json || !proto) continue;
      const [name, ...flags] = json[1].split(',');
      current.set(Number(proto[1]), {
        json: name,
        omitempty: flags.includes('omitempty'),
        pointer: field[2].startsWith('*'),
        inline: flags.includes('inline'),
      });
    }
  }
  return out;
}

/** The Go package directory of a reference `file` (api/core/v1/generated.proto). */
function goPackageDir(file: string): string {
  return `staging/src/k8s.io/${dirname(file)}`;
}

function refresh(referencePath: string, gitDir: string): void {
  const reference = JSON.parse(readFileSync(referencePath, 'utf8')) as FieldTable;
  const all = Object.keys(reference.packages);
  const wanted = new Set<string>([...ROOT_PACKAGES, ...EXTRA_PACKAGES]);
  for (const name of Object.keys(definitions)) {
    const pkg = protoPackageOf(name.slice(0, name.lastIndexOf('.')), all);
    if (pkg) wanted.add(pkg);
  }
  // The packages their messages reach.
  const packageOf = (type: string) => {
    const t = type.replace(/^map<\w+,(.+)>$/, '$1');
    return t.includes('.') ? t.slice(0, t.lastIndexOf('.')) : undefined;
  };
  for (let grown = true; grown; ) {
    grown = false;
    for (const pkg of [...wanted]) {
      for (const fields of Object.values(reference.packages[pkg].messages)) {
        for (const target of fields.map((f) => packageOf(f.type))) {
          if (target && !wanted.has(target)) {
            wanted.add(target);
            grown = true;
          }
        }
      }
    }
  }
  const table: FieldTable = {
    source: `${reference.source}; JSON names and Go facts (pointer, omitempty, inline) from the Go types of the same release`,
    packages: {},
  };
  for (const pkg of [...wanted].sort()) {
    const { file, messages } = reference.packages[pkg];
    const facts = goFields(gitDir, goPackageDir(file));
    const out: Record<string, ProtoField[]> = {};
    for (const [message, fields] of Object.entries(messages)) {
      if (fields.length && !facts.has(message)) console.warn(`no Go struct for ${pkg}.${message}: JSON names and Go facts assumed`);
      out[message] = fields.map((f) => {
        const go = facts.get(message)?.get(f.number);
        const field: ProtoField = { label: f.label, type: f.type, name: f.name, number: f.number };
        if (!go) return field;
        if (go.json !== f.name && !go.inline) field.json = go.json;
        const flags = [go.pointer && 'pointer', go.omitempty && 'omitempty', go.inline && 'inline'].filter(Boolean);
        if (flags.length) field.go = flags.join(',');
        return field;
      });
    }
    table.packages[pkg] = { file, messages: out };
  }
  writeFileSync(PROTO_SOURCE, `${JSON.stringify(table, null, 1)}\n`);
  console.log(`wrote ${PROTO_SOURCE}: ${wanted.size} packages`);
}

/** A field's type as written in the package's .proto: fully qualified with a leading dot. */
function protoType(type: string): string {
  const map = /^map<(\w+),(.+)>$/.exec(type);
  if (map) return `map<${map[1]}, ${protoType(map[2])}>`;
  return type.includes('.') ? `.${type}` : type;
}

function emitPackage(pkg: string, messages: Record<string, ProtoField[]>): string {
  const lines = [
    '// Generated by scripts/generate-proto.ts from proto/source/kubernetes-1.28-proto.json. Do not edit.',
    "// Field numbers are Kubernetes 1.28's; options say how each field is written in JSON (see the script).",
    'syntax = "proto2";',
    '',
    `package ${pkg};`,
    '',
  ];
  for (const [message, fields] of Object.entries(messages)) {
    lines.push(`message ${message} {`);
    for (const f of fields) {
      const options = [
        f.json !== undefined && `json_name = ${JSON.stringify(f.json)}`,
        f.go && `(orch.go) = ${JSON.stringify(f.go)}`,
      ].filter(Boolean);
      const label = f.type.startsWith('map<') ? '' : `${f.label} `;
      lines.push(`  ${label}${protoType(f.type)} ${f.name} = ${f.number}${options.length ? ` [${options.join(', ')}]` : ''};`);
    }
    lines.push('}', '');
  }
  return lines.join('\n');
}

function generate(): void {
  const table = JSON.parse(readFileSync(PROTO_SOURCE, 'utf8')) as FieldTable;
  rmSync(join(PROTO_DIR, 'k8s.io'), { recursive: true, force: true });
  for (const [pkg, { file, messages }] of Object.entries(table.packages)) {
    const path = join(PROTO_DIR, 'k8s.io', file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, emitPackage(pkg, messages));
  }
  console.log(`wrote ${Object.keys(table.packages).length} .proto files under ${join(PROTO_DIR, 'k8s.io')}`);
}

const args = process.argv.slice(2);
if (args[0] === '--refresh') {
  if (args.length !== 3) throw new Error('usage: generate-proto.js --refresh <kubernetes-proto-fields.json> <kubernetes .git dir>');
  refresh(args[1], args[2]);
}
generate();
