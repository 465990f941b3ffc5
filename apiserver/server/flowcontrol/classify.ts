/**
 * API Priority and Fairness' classification (Kubernetes' apf_controller Match and matching.go): the
 * FlowSchemas in matching order (precedence, then name), the first whose rules match a request's
 * user and action picks its priority level and, by its distinguisher, the flow. A schema whose level
 * does not exist (Dangling) is skipped; with no match the catch-all schema answers.
 */
import type { FlowSchema, FlowcontrolV1beta3Subject, NonResourcePolicyRule, ResourcePolicyRule } from '../../api/generated/types.js';
import type { UserInfo } from '../../api/user-info.js';

const ALL = '*';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** What classification reads of a request (the request info and the authenticated user). */
export interface RequestDigest {
  user: UserInfo;
  isResourceRequest: boolean;
  /** The request info's verb (get, list, …; the lower-case method for non-resource requests). */
  verb: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  path: string;
}

export interface Classification {
  schema: FlowSchema;
  /** The distinguisher value: the user name (ByUser), the namespace (ByNamespace) or ''. */
  distinguisher: string;
}

/** The schemas in Kubernetes' matching order: lower precedence first, then by name. */
export function matchingOrder(schemas: readonly FlowSchema[]): FlowSchema[] {
  const precedence = (s: FlowSchema) => s.spec?.matchingPrecedence ?? 1000;
  return [...schemas].sort((a, b) => precedence(a) - precedence(b) || (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** The first matching schema of `ordered` (see matchingOrder), else `catchAll`. */
export function classify(ordered: readonly FlowSchema[], catchAll: FlowSchema, digest: RequestDigest): Classification {
  const schema = firstMatch(ordered, catchAll, digest);
  return { schema, distinguisher: distinguisherOf(schema, digest) };
}

function firstMatch(ordered: readonly FlowSchema[], catchAll: FlowSchema, d: RequestDigest): FlowSchema {
  return ordered.find((s) => matchesSchema(s, d)) ?? catchAll;
}

/**
 * Everything matching reads of a digest, as one string: equal strings match the same schemas. Each
 * field is prefixed by its length, so no user name or group (a certificate's CN may hold any
 * character) can make two different digests one.
 */
export function matchingKey(d: RequestDigest): string {
  let key = d.isResourceRequest
    ? `r${field(d.verb)}${field(d.apiGroup)}${field(d.namespace)}${field(d.resource)}${field(d.subresource)}`
    : `n${field(d.verb)}${field(d.path)}`;
  key += field(d.user.name);
  for (const g of d.user.groups) key += field(g);
  return key;
}

const field = (s: string) => `${s.length}:${s}`;

/** The longest matching key remembered: a non-resource path is the client's, up to a URL's length. */
const MAX_KEY_CHARS = 1024;

/**
 * classify, remembering each matching key's schema until the schemas change (`reset`): walking the
 * schemas' rules is most of what classifying costs, and a server's requests come from few users
 * doing few things. At most `capacity` keys of at most MAX_KEY_CHARS are held (a few MB at most);
 * past that the memo starts over, and a longer key is classified afresh every time.
 */
export class ClassificationMemo {
  private readonly schemas = new Map<string, FlowSchema>();

  constructor(private readonly capacity = 4096) {}

  classify(ordered: readonly FlowSchema[], catchAll: FlowSchema, d: RequestDigest): Classification {
    const key = matchingKey(d);
    let schema = this.schemas.get(key);
    if (!schema) {
      schema = firstMatch(ordered, catchAll, d);
      if (key.length <= MAX_KEY_CHARS) {
        if (this.schemas.size >= this.capacity) this.schemas.clear();
        this.schemas.set(key, schema);
      }
    }
    return { schema, distinguisher: distinguisherOf(schema, d) };
  }

  reset(): void {
    this.schemas.clear();
  }

  get size(): number {
    return this.schemas.size;
  }
}

function distinguisherOf(schema: FlowSchema, d: RequestDigest): string {
  switch (schema.spec?.distinguisherMethod?.type) {
    case 'ByUser':
      return d.user.name;
    case 'ByNamespace':
      return d.namespace;
    default:
      return '';
  }
}

export function matchesSchema(schema: FlowSchema, d: RequestDigest): boolean {
  return (schema.spec?.rules ?? []).some(
    (rule) =>
      rule.subjects.some((s) => matchesSubject(s, d.user)) &&
      (d.isResourceRequest
        ? (rule.resourceRules ?? []).some((r) => matchesResourceRule(r, d))
        : (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(r, d))),
  );
}

export function matchesSubject(s: FlowcontrolV1beta3Subject, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User':
      return s.user?.name === ALL || s.user?.name === user.name;
    case 'Group':
      return s.group?.name === ALL || (s.group !== undefined && user.groups.includes(s.group.name));
    case 'ServiceAccount': {
      if (!s.serviceAccount || !user.name.startsWith(SERVICE_ACCOUNT_PREFIX)) return false;
      const [namespace, name, ...rest] = user.name.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
      if (rest.length > 0 || !namespace || !name || s.serviceAccount.namespace !== namespace) return false;
      return s.serviceAccount.name === ALL || s.serviceAccount.name === name;
    }
    default:
      return false;
  }
}

const hasOrAll = (list: readonly string[] | undefined, value: string) => !!list && (list.includes(ALL) || list.includes(value));

export function matchesResourceRule(r: ResourcePolicyRule, d: RequestDigest): boolean {
  if (!hasOrAll(r.verbs, d.verb) || !hasOrAll(r.apiGroups, d.apiGroup)) return false;
  const resource = d.subresource ? `${d.resource}/${d.subresource}` : d.resource;
  if (!hasOrAll(r.resources, resource)) return false;
  return d.namespace === '' ? r.clusterScope === true : hasOrAll(r.namespaces, d.namespace);
}

/**
 * `*` matches every path; a URL matches itself and every path below it (`/healthz` and `/healthz/*`
 * both match `/healthz/etcd`), as Kubernetes matches them.
 */
export function matchesNonResourceRule(r: NonResourcePolicyRule, d: RequestDigest): boolean {
  if (!hasOrAll(r.verbs, d.verb)) return false;
  return r.nonResourceURLs.some((url) => {
    if (url === ALL || url === d.path) return true;
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    return d.path.startsWith(prefix);
  });
}
