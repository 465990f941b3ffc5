/**
 * How field ownership sees a kind's schema (structured-merge-diff's schema, as Kubernetes converts
 * OpenAPI into it): every value is a scalar, a list or a map.
 * - Lists are atomic, or associative: keyed by their x-orch-list-map-keys (list type map), by their
 *   values (list type set), or, without a list type, by their strategic-merge-patch merge key
 *   (patch strategy merge; a set when there is no key). Anything else is atomic.
 * - Maps are structs (declared fields) or maps (additionalProperties), granular unless
 *   x-orch-map-type says atomic.
 * - Schema-less content is deduced from the value: objects are granular maps whose keys are tracked
 *   one by one, lists are atomic.
 */
import type { Definitions, Schema } from '../api/schema.js';
import { resolveSchema } from '../api/schema.js';

export interface ListAtom {
  readonly kind: 'list';
  readonly atomic: boolean;
  /** Key fields of an associative list; empty for a set (and for atomic lists). */
  readonly keys: readonly string[];
  /** Values used for key fields an item leaves out. */
  readonly keyDefaults: Readonly<Record<string, unknown>>;
  readonly element: Schema | undefined;
}

export interface MapAtom {
  readonly kind: 'map';
  readonly atomic: boolean;
  /** The declared fields of a struct; undefined for a map. */
  readonly fields: Readonly<Record<string, Schema>> | undefined;
  /** The type of a map's values (and of undeclared keys); undefined = deduced. */
  readonly element: Schema | undefined;
}

export type ConcreteAtom = { readonly kind: 'scalar' } | ListAtom | MapAtom;

export type Atom = ConcreteAtom | { readonly kind: 'deduced' };

const SCALAR: ConcreteAtom = { kind: 'scalar' };
const DEDUCED: Atom = { kind: 'deduced' };
const DEDUCED_MAP: MapAtom = { kind: 'map', atomic: false, fields: undefined, element: undefined };
const DEDUCED_LIST: ListAtom = { kind: 'list', atomic: true, keys: [], keyDefaults: {}, element: undefined };

/**
 * Defaults of list-map key fields (Kubernetes' `+default` markers, which the OpenAPI definitions we
 * generate from leave out): an item without the field is keyed with this value.
 */
const LIST_KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'core.v1.ContainerPort': { protocol: 'TCP' },
  'core.v1.ServicePort': { protocol: 'TCP' },
};

const REF_PREFIX = '#/definitions/';

/** Resolves schemas to atoms, once per schema object. */
export class TypeResolver {
  private readonly cache = new Map<Schema, Atom>();

  constructor(readonly definitions: Definitions) {}

  /** The atom of a schema; undefined (no schema) is deduced. */
  atom(schema: Schema | undefined): Atom {
    if (!schema) return DEDUCED;
    let a = this.cache.get(schema);
    if (!a) {
      a = this.compute(schema);
      this.cache.set(schema, a);
    }
    return a;
  }

  private compute(s: Schema): Atom {
    const r = resolveSchema(s, this.definitions);
    const ext = <K extends keyof Schema>(name: K): Schema[K] => s[name] ?? r[name];
    if (r['x-orch-int-or-string']) return SCALAR;
    if (r['x-orch-preserve-unknown-fields']) return DEDUCED;
    if (r.type === 'array') return this.list(r, ext);
    if (r.properties || typeof r.additionalProperties === 'object') {
      return {
        kind: 'map',
        atomic: ext('x-orch-map-type') === 'atomic',
        fields: r.properties,
        element: typeof r.additionalProperties === 'object' ? r.additionalProperties : undefined,
      };
    }
    if (r.type === 'object' || r.type === undefined) return DEDUCED;
    return SCALAR;
  }

  private list(r: Schema, ext: <K extends keyof Schema>(name: K) => Schema[K]): ListAtom {
    const element = r.items;
    const listType = ext('x-orch-list-type');
    let keys: readonly string[] | undefined;
    if (listType === 'set') keys = [];
    else if (listType === 'map') keys = ext('x-orch-list-map-keys') ?? [];
    else if (listType === undefined) {
      const strategy = ext('x-orch-patch-strategy');
      if (strategy === 'merge' || strategy === 'merge,retainKeys') {
        const key = ext('x-orch-patch-merge-key');
        keys = key ? [key] : [];
      }
    }
    if (keys === undefined) return { kind: 'list', atomic: true, keys: [], keyDefaults: {}, element };
    const ref = element?.$ref?.startsWith(REF_PREFIX) ? element.$ref.slice(REF_PREFIX.length) : '';
    return { kind: 'list', atomic: false, keys, keyDefaults: LIST_KEY_DEFAULTS[ref] ?? {}, element };
  }
}

const resolvers = new WeakMap<Definitions, TypeResolver>();

/** The (shared) resolver of a definitions table. */
export function typeResolver(definitions: Definitions): TypeResolver {
  let r = resolvers.get(definitions);
  if (!r) {
    r = new TypeResolver(definitions);
    resolvers.set(definitions, r);
  }
  return r;
}

/** A deduced atom made concrete by the value it types: a granular map, an atomic list, or a scalar. */
export function concreteAtom(atom: Atom, value: unknown): ConcreteAtom {
  if (atom.kind !== 'deduced') return atom as ConcreteAtom;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (value !== null && typeof value === 'object') return DEDUCED_MAP;
  return SCALAR;
}

/** The type of a map's key: the declared field's, else the map's element type. */
export function fieldSchema(atom: MapAtom, key: string): Schema | undefined {
  return (atom.fields && Object.hasOwn(atom.fields, key) ? atom.fields[key] : undefined) ?? atom.element;
}

/** Whether a key is a declared struct field (owned through its leaves) rather than a map entry. */
export function isDeclaredField(atom: MapAtom, key: string): boolean {
  return !!atom.fields && Object.hasOwn(atom.fields, key);
}
