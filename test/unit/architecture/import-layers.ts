/**
 * The floors of the sources and the one rule between them: an import only ever points down (or
 * stays on its floor). apiserver/README.md states the same table in prose; this file is what the
 * test enforces.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/** apiserver's floors, lowest first; folders on one floor may import each other. */
export const APISERVER_FLOORS: readonly (readonly string[])[] = [
  ['api', 'runtime'],
  ['storage'],
  ['registry'],
  ['admission', 'audit', 'authorization', 'authentication', 'fieldmanager', 'patch'],
  ['endpoints'],
  ['server', 'frontdoor'],
  ['cmd'],
];

/** Process plumbing every binary shares: it imports only the ground floor, binaries import it. */
const COMPONENT_BASE = 'apiserver/component-base';
const COMPONENT_BASE_USERS = ['apiserver/server', 'apiserver/frontdoor', 'apiserver/cmd', 'controllers', 'scripts'];

/** What the controller manager, a client of the API, may import from apiserver/. */
const CONTROLLERS_MAY_IMPORT = ['apiserver/api', 'apiserver/runtime', COMPONENT_BASE];

/**
 * The controller manager's composition root: it imports every controller (through their
 * descriptors) and no controller imports it; only the binary's entry may.
 */
const CONTROLLERS_ROOT = 'controllers/app/';
const CONTROLLERS_ROOT_USERS = [CONTROLLERS_ROOT, 'controllers/cmd/'];

/**
 * registry/'s own floors, lowest first: the generic store (`generic/`), what several groups share
 * (`shared/`: pod spec, IP and network, workload spec and status counters, events, persistent volume
 * spec), the API groups (every other folder, `GROUP`), and the declarations binding each kind to its
 * group's strategy (`resources/`). Folders of one floor may import each other, except groups: a group
 * imports only itself and the floors below, so what two groups share is lifted into `shared/`.
 * No file lies flat in registry/.
 */
const GROUP = '<group>';
export const REGISTRY_FLOORS: readonly string[] = ['generic', 'shared', GROUP, 'resources'];

/** The folder of registry/ a repository path lies in; '' for a file flat in registry/, undefined outside. */
function registryFolderOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'apiserver' || parts[1] !== 'registry') return undefined;
  return parts.length > 3 ? parts[2] : '';
}

function registryFloorOf(folder: string): number {
  const i = REGISTRY_FLOORS.indexOf(folder);
  return i < 0 ? REGISTRY_FLOORS.indexOf(GROUP) : i;
}

/** Why one registry file may not import another (both under apiserver/registry/); undefined when it may. */
function registryViolation(from: string, to: string): string | undefined {
  const source = registryFolderOf(from)!;
  const target = registryFolderOf(to)!;
  if (source === '') return `${from} lies flat in registry/ (put it on one of its floors: ${REGISTRY_FLOORS.join(', ')})`;
  if (target === '') return `${to} lies flat in registry/ (put it on one of its floors: ${REGISTRY_FLOORS.join(', ')})`;
  if (source === target) return undefined;
  const sf = registryFloorOf(source);
  const tf = registryFloorOf(target);
  if (tf > sf) return `registry/${source} (registry floor ${sf}) imports registry/${target} (floor ${tf}): an import only ever points down`;
  if (sf === tf && REGISTRY_FLOORS[sf] === GROUP)
    return `the groups registry/${source} and registry/${target} import each other: lift what they share into registry/shared/`;
  return undefined;
}

/** The layer a repository path belongs to: `apiserver/<folder>`, `controllers` or `scripts`. */
export function layerOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'apiserver') return parts.length > 2 ? `apiserver/${parts[1]}` : undefined;
  if (parts[0] === 'controllers' || parts[0] === 'scripts' || parts[0] === 'test') return parts[0];
  return undefined;
}

function floorOf(layer: string): number | undefined {
  const i = APISERVER_FLOORS.findIndex((floor) => floor.some((f) => `apiserver/${f}` === layer));
  return i < 0 ? undefined : i;
}

/** Why `from` may not import `to` (repository paths); undefined when it may. */
export function violation(from: string, to: string): string | undefined {
  const source = layerOf(from);
  const target = layerOf(to);
  if (!source) return `${from} is in no layer (add its folder to the floors)`;
  if (source === 'controllers' && to.startsWith(CONTROLLERS_ROOT) && !CONTROLLERS_ROOT_USERS.some((p) => from.startsWith(p)))
    return `only ${CONTROLLERS_ROOT_USERS.join(', ')} import the controller manager's composition root (${CONTROLLERS_ROOT}): controllers get what they need from controllers/controllerutil/`;
  if (source === 'apiserver/registry' && target === 'apiserver/registry') return registryViolation(from, to);
  if (!target || target === source) return undefined;
  // Scripts (benchmarks, the launcher, the generator) sit on top of everything, test support included.
  if (source === 'scripts') return undefined;
  if (target === 'test') return 'sources never import tests';
  if (target === 'scripts') return 'only scripts import scripts';
  if (target === COMPONENT_BASE)
    return COMPONENT_BASE_USERS.includes(source) ? undefined : `only ${COMPONENT_BASE_USERS.join(', ')} import the component base`;
  if (source === 'controllers') {
    if (CONTROLLERS_MAY_IMPORT.includes(target)) return undefined;
    return `controllers import only ${CONTROLLERS_MAY_IMPORT.join(', ')}`;
  }
  if (target === 'controllers') return 'the API server never imports the controller manager';
  if (source === COMPONENT_BASE) return floorOf(target) === 0 ? undefined : 'the component base imports only the ground floor';
  const sf = floorOf(source);
  const tf = floorOf(target);
  if (sf === undefined) return `${source} is on no floor (add it to APISERVER_FLOORS)`;
  if (tf === undefined) return `${target} is on no floor (add it to APISERVER_FLOORS)`;
  return tf > sf ? `${source} (floor ${sf}) imports ${target} (floor ${tf}): an import only ever points down` : undefined;
}

/** The text with its comments blanked, strings kept (so `//` inside a string stays). */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Static imports and re-exports (possibly over several lines), side-effect imports, import(). */
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/gm,
  /^\s*import\s*(['"])([^'"]+)\1/gm,
  /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g,
];

/** The relative imports of one source file, as repository paths of .ts files. */
export function importsOf(path: string, text: string): string[] {
  const code = withoutComments(text);
  const out: string[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const m of code.matchAll(pattern)) {
      if (m[2].startsWith('.')) out.push(posix.join(posix.dirname(path), m[2]).replace(/\.js$/, '.ts'));
    }
  }
  return out;
}

/** Every upward import among the given sources (repository path → text), as "file → import: why". */
export function upwardImports(sources: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of sources) {
    for (const target of importsOf(path, text)) {
      const why = violation(path, target);
      if (why) found.push(`${path} → ${target}: ${why}`);
    }
  }
  return found;
}

/** The .ts sources under the given top folders of the repository, test files left out. */
export function readSources(root: string, tops: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        sources.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
      }
    }
  };
  for (const top of tops) walk(join(root, top));
  return sources;
}

/**
 * The import cycles among the given sources whose paths start with `prefix`: each a list of files that
 * reach each other (Tarjan's strongly connected components), type-only imports counted.
 */
export function importCycles(sources: Map<string, string>, prefix: string): string[][] {
  const edges = new Map<string, string[]>();
  for (const [path, text] of sources) {
    if (path.startsWith(prefix))
      edges.set(
        path,
        importsOf(path, text).filter((t) => t.startsWith(prefix) && sources.has(t)),
      );
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v)?.includes(v)) cycles.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
