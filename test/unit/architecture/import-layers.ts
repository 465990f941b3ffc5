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
