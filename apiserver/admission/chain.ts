import type { AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';
import { deepCopy } from '../api/object.js';
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { WriteAdmission } from '../registry/generic/write-admission.js';

/** Runs every mutating plugin in order, then (separately, later) every validating plugin on a copy. */
export type AdmissionChain = WriteAdmission & { readonly plugins: readonly string[] };

/** The plugins of one phase for one resource and operation, in chain order. */
type PluginLists = Map<Operation, readonly AdmissionPlugin[]>;

/**
 * The plugins of one phase that see each resource's writes of each operation, worked out on a
 * resource's first write and kept (plugins answer by the resource's group and names, which a
 * definition never changes).
 */
function newPluginSelector(
  plugins: readonly AdmissionPlugin[],
): (resource: ResourceDef, operation: Operation) => readonly AdmissionPlugin[] {
  const byResource = new WeakMap<ResourceDef, PluginLists>();
  return (resource, operation) => {
    let lists = byResource.get(resource);
    if (!lists) byResource.set(resource, (lists = new Map()));
    let list = lists.get(operation);
    if (!list) {
      list = plugins.filter((p) => p.handles(operation) && (p.handlesResource?.(resource) ?? true));
      lists.set(operation, list);
    }
    return list;
  };
}

/**
 * The attributes the validators see: the same, with object and oldObject copied when first read
 * (and that copy kept for the validators after): most validators look at the resource first and
 * never read the object, so most writes copy nothing. The two are accessors of the class, shared by
 * every instance, so a view costs one ordinary object.
 */
class ValidatingView implements AdmissionAttributes {
  declare operation: AdmissionAttributes['operation'];
  declare resource: AdmissionAttributes['resource'];
  declare subresource: string;
  declare namespace: string;
  declare name: string;
  declare user: AdmissionAttributes['user'];
  declare dryRun: boolean;
  declare warnings: string[];
  declare auditAnnotations?: Record<string, string>;
  declare rollback: AdmissionAttributes['rollback'];
  declare options?: Record<string, unknown>;
  #object: ApiObject | undefined;
  #oldObject: ApiObject | undefined;
  #objectCopied = false;
  #oldObjectCopied = false;

  constructor(a: AdmissionAttributes) {
    for (const key of Object.keys(a) as (keyof AdmissionAttributes)[]) {
      if (key !== 'object' && key !== 'oldObject') (this as Record<string, unknown>)[key] = a[key];
    }
    this.#object = a.object;
    this.#oldObject = a.oldObject;
  }

  get object(): ApiObject | undefined {
    if (!this.#objectCopied) {
      this.#object = this.#object && deepCopy(this.#object);
      this.#objectCopied = true;
    }
    return this.#object;
  }

  set object(v: ApiObject | undefined) {
    this.#object = v;
    this.#objectCopied = true;
  }

  get oldObject(): ApiObject | undefined {
    if (!this.#oldObjectCopied) {
      this.#oldObject = this.#oldObject && deepCopy(this.#oldObject);
      this.#oldObjectCopied = true;
    }
    return this.#oldObject;
  }

  set oldObject(v: ApiObject | undefined) {
    this.#oldObject = v;
    this.#oldObjectCopied = true;
  }
}

/**
 * The chain of enabled plugins in their fixed order: `admit` runs each plugin's mutating half, `validate`
 * (called by the store after the strategy's validation) each validating half; the first error stops
 * the request with that plugin's error.
 */
export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = newPluginSelector(plugins.filter((p) => p.admit));
  const validating = newPluginSelector(plugins.filter((p) => p.validate));
  return {
    plugins: plugins.map((p) => p.name),
    async admit(a) {
      for (const p of mutating(a.resource, a.operation)) await p.admit!(a);
    },
    async validate(a) {
      const wanted = validating(a.resource, a.operation);
      if (wanted.length === 0) return;
      const view = new ValidatingView(a);
      for (const p of wanted) await p.validate!(view);
    },
  };
}
