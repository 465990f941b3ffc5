/**
 * What admission unit tests share: the real resource table (so attributes carry real ResourceDefs), an
 * in-memory ObjectReader/ObjectWriter holding the objects a plugin reads, and attributes for a write.
 */
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import type { ApiObject } from '../../../apiserver/api/object.js';
import type { ResourceDef } from '../../../apiserver/api/resource.js';
import * as status from '../../../apiserver/api/status.js';
import type { UserInfo } from '../../../apiserver/api/user-info.js';
import { allResources } from '../../../apiserver/registry/resources/index.js';
import { typedReader } from '../../../apiserver/admission/resources.js';
import { definitions } from '../../../apiserver/api/generated/definitions.js';
import type {
  AdmissionAttributes,
  AdmissionFlags,
  AdmissionMetrics,
  KubeResource,
  Operation,
  PluginEnv,
} from '../../../apiserver/admission/interfaces.js';
import type { Authorizer } from '../../../apiserver/authorization/interfaces.js';
import { newAdmissionRollback } from '../../../apiserver/registry/generic/write-admission.js';

export const domain = newApiDomain('orch.io');
export const table = newResourceTable(domain, allResources);

export const ADMIN: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

/** The served definition of a Kubernetes resource ('' core, 'apps', 'storage.k8s.io', …). */
export function defOf(group: string, resource: string): ResourceDef {
  const def = table.all().find((d) => d.kubernetesGroup === group && d.plural === resource && !d.conversion);
  if (!def) throw new Error(`no resource ${resource}.${group}`);
  return def;
}

/** An in-memory object world keyed by resource/namespace/name, with create/replace and a CAS check. */
export class Objects {
  readonly byKey = new Map<string, ApiObject>();
  private rv = 1;
  /** Called before each replace (tests race writes through it). */
  beforeReplace?: () => void;

  private key(r: KubeResource, namespace: string, name: string) {
    return `${r.group}/${r.resource}/${namespace}/${name}`;
  }

  put(r: KubeResource, obj: ApiObject): ApiObject {
    const o = structuredClone(obj);
    o.metadata.resourceVersion = String(++this.rv);
    this.byKey.set(this.key(r, o.metadata.namespace ?? '', o.metadata.name!), o);
    return structuredClone(o);
  }

  reader = {
    get: async (r: KubeResource, namespace: string, name: string) => {
      const o = this.byKey.get(this.key(r, namespace, name));
      return o ? structuredClone(o) : null;
    },
    list: async (r: KubeResource, namespace: string) =>
      [...this.byKey.entries()]
        .filter(([k]) => k.startsWith(`${r.group}/${r.resource}/${namespace ? `${namespace}/` : ''}`))
        .map(([, o]) => structuredClone(o)),
  };

  writer = {
    create: async (r: KubeResource, namespace: string, obj: ApiObject) => {
      if (this.byKey.has(this.key(r, namespace, obj.metadata.name!)))
        throw status.alreadyExists({ group: r.group, resource: r.resource }, obj.metadata.name!);
      return this.put(r, { ...obj, metadata: { ...obj.metadata, namespace: namespace || undefined } });
    },
    replace: async (r: KubeResource, namespace: string, obj: ApiObject) => {
      this.beforeReplace?.();
      const cur = this.byKey.get(this.key(r, namespace, obj.metadata.name!));
      if (!cur) throw status.notFound({ group: r.group, resource: r.resource }, obj.metadata.name!);
      if (cur.metadata.resourceVersion !== obj.metadata.resourceVersion) {
        throw status.conflict({ group: r.group, resource: r.resource }, obj.metadata.name!, 'the object has been modified');
      }
      return this.put(r, obj);
    },
  };
}

export const ALLOW_ALL: Authorizer = { authorize: async () => ({ decision: 'Allow', reason: '' }) };

export const DEFAULT_FLAGS: AdmissionFlags = { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 };

/** Metrics that record nothing. */
export const NO_METRICS: AdmissionMetrics = { webhookRejection: () => {}, webhookLatency: () => {} };

export function newEnv(objects = new Objects(), over: Partial<PluginEnv> = {}): PluginEnv {
  return {
    domain,
    reader: typedReader(objects.reader),
    writer: objects.writer,
    authorizer: ALLOW_ALL,
    flags: DEFAULT_FLAGS,
    watch: () => {},
    equivalents: () => [],
    metrics: NO_METRICS,
    resourcesOfKind: (group, kind) => table.all().filter((d) => d.group === group && d.kind === kind && !d.conversion),
    definitions,
    ...over,
  };
}

export interface Write {
  operation?: Operation;
  group?: string;
  resource: string;
  namespace?: string;
  name?: string;
  object?: ApiObject;
  oldObject?: ApiObject;
  subresource?: string;
  user?: UserInfo;
  dryRun?: boolean;
}

/** Attributes of one write; `rollback.revert()` runs what plugins registered. */
export function attrs(w: Write): AdmissionAttributes & { rollback: ReturnType<typeof newAdmissionRollback> } {
  return {
    operation: w.operation ?? 'CREATE',
    resource: defOf(w.group ?? '', w.resource),
    subresource: w.subresource ?? '',
    namespace: w.namespace ?? '',
    name: w.name ?? w.object?.metadata.name ?? w.oldObject?.metadata.name ?? '',
    object: w.object,
    oldObject: w.oldObject,
    user: w.user ?? ADMIN,
    dryRun: w.dryRun ?? false,
    warnings: [],
    rollback: newAdmissionRollback(),
  };
}

/** The ApiError a promise rejects with (fails when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<status.ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof status.ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError, the call succeeded');
}
