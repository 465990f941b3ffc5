/**
 * Answers in the negotiated view: the object(s), a Table, or PartialObjectMetadata. Reads and writes
 * alike (a create asked `as=Table` answers the new object's row, as Kubernetes' transformResponseObject).
 */
import type { ApiList, ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import { parseIncludeObject, partialObjectMetadata, partialObjectMetadataList, toTable } from '../table.js';
import type { RequestScope } from './scope.js';

/**
 * Go's name (`%T`) of the object Kubernetes transforms, which Kubernetes' 406 texts print: the internal
 * type of a built-in kind (its group's package: `*core.ConfigMap`, `*apps.DeploymentList`; a kind served
 * from another's storage, as events.k8s.io Events, is that kind's), `*unstructured.Unstructured[List]`
 * for a custom resource.
 */
function goTypeName(def: ResourceDef, list: boolean): string {
  if (def.unstructured) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const { kubernetesGroup, kind } = def.conversion?.storage ?? def;
  const pkg = kubernetesGroup === '' ? 'core' : kubernetesGroup.split('.')[0];
  return `*${pkg}.${kind}${list ? 'List' : ''}`;
}

/**
 * The 406 for an answer of the other shape than the view asked (a single object asked as
 * PartialObjectMetadataList, a list as PartialObjectMetadata). Writes check it before they write
 * (Kubernetes writes first and answers the 406 after: nothing is written here on a refusal).
 */
export function checkViewShape(s: RequestScope, list: boolean): void {
  const { view } = s.output;
  if (!list && view === 'metadata-list')
    throw status.notAcceptableView(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(s.def, false)})`,
    );
  if (list && view === 'metadata')
    throw status.notAcceptableView(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(s.def, true)})`);
}

/**
 * `now` is when the answer is rendered: the request's time, or for a watch event the time it is sent.
 * A watch renders its events as PartialObjectMetadata under either metadata view.
 */
export function renderObject(s: RequestScope, obj: ApiObject, noHeaders = false, now: Date = s.ctx.now): unknown {
  const { view, viewApiVersion } = s.output;
  if (view === 'metadata' || view === 'metadata-list') return partialObjectMetadata(obj, viewApiVersion);
  if (view === 'table') {
    const includeObject = parseIncludeObject(s.query.get('includeObject'));
    // A single object's Table carries its resourceVersion, as a list's carries the list's.
    const meta = obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {};
    return toTable(s.def, [obj], { apiVersion: viewApiVersion, includeObject, now, noHeaders }, meta);
  }
  return obj;
}

/** One object's answer (a GET, a write), after checkViewShape; a Status answer is never transformed. */
export function renderAnswer(s: RequestScope, obj: ApiObject): unknown {
  if ((obj as { kind?: string }).kind === 'Status') return obj;
  checkViewShape(s, false);
  return renderObject(s, obj);
}

export function renderList(s: RequestScope, list: ApiList): unknown {
  checkViewShape(s, true);
  const { view, viewApiVersion } = s.output;
  if (view === 'metadata-list') return partialObjectMetadataList(list, viewApiVersion);
  if (view === 'table') {
    const includeObject = parseIncludeObject(s.query.get('includeObject'));
    return toTable(s.def, list.items, { apiVersion: viewApiVersion, includeObject, now: s.ctx.now }, list.metadata);
  }
  return list;
}
