// Deleted objects and their restore, from the revision ledger (history.<domain>/v1): the listing of
// what was deleted (DeletedObject) and a Restore button where the user may create the object again,
// asked of the API (SelfSubjectAccessReview) before the button is offered; the API decides again on
// the POST, so the button is a courtesy, not the check.
import { useEffect, useState } from 'preact/hooks';
import { get, group, post } from './api.js';
import { objectHref } from './discovery.js';
import { html } from './html.js';
import { NamespaceInput } from './namespace-input.js';

const historyPath = (namespace) =>
  `/apis/${group('history')}/v1${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/deletedobjects`;

/** Every DeletedObject in the namespace ('' → everywhere), all pages. */
export async function deletedObjects(namespace) {
  const items = [];
  let token = '';
  for (let pages = 0; pages < 100; pages++) {
    const list = await get(`${historyPath(namespace)}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    items.push(...(list.items ?? []));
    token = list.metadata?.continue ?? '';
    if (!token) break;
  }
  return items;
}

/** Whether the user may create `resource` of `group` in `namespace`: the right Restore needs. */
async function mayCreate(target) {
  const g = group('authorization');
  const review = await post(`/apis/${g}/v1/selfsubjectaccessreviews`, {
    apiVersion: `${g}/v1`,
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { verb: 'create', group: target.group, resource: target.resource, namespace: target.namespace ?? '' } },
  });
  return review.status?.allowed === true;
}

/** One deleted object: who deleted it and when, and its Restore button (or why there is none). */
export function RestoreBox({ deleted, onRestored }) {
  const t = deleted.target;
  const [may, setMay] = useState(undefined);
  const [state, setState] = useState({});
  useEffect(() => {
    mayCreate(t).then(setMay, () => setMay(false));
  }, [deleted.metadata.name, deleted.metadata.namespace]);
  const restore = async () => {
    setState({ busy: true });
    try {
      const r = await post(`/apis/${group('history')}/v1/restores`, {
        apiVersion: `${group('history')}/v1`,
        kind: 'Restore',
        metadata: { generateName: 'console-' },
        spec: { group: t.group, resource: t.resource, name: t.name, uid: t.uid, ...(t.namespace ? { namespace: t.namespace } : {}) },
      });
      const n = r.status?.restored?.length ?? 0;
      setState({ done: `Restored ${n} object${n === 1 ? '' : 's'}.` });
      onRestored?.(r);
    } catch (err) {
      setState({ error: `Restore refused (${err.code}): ${err.message}` });
    }
  };
  const where = t.namespace ? ` in ${t.namespace}` : '';
  return html`<div class="restore" data-name=${deleted.metadata.name}>
    <span>Deleted by <b>${deleted.deletion.user}</b> at ${deleted.deletion.time} (last rv ${deleted.deletion.lastResourceVersion}, uid ${t.uid}).</span>
    ${may === true && !state.done && html` <button class="restore-button" disabled=${state.busy} onClick=${restore}>Restore</button>`}
    ${may === false && html` <span class="denied">You may not restore it: you may not create ${t.resource}${where}.</span>`}
    ${state.done && html` <span class="ok restore-done">${state.done}</span>`}
    ${state.error && html`<p class="error restore-error">${state.error}</p>`}
  </div>`;
}

/** The restore of one object on its page, when it does not exist (now). */
export function RestoreOne({ r, namespace, name }) {
  const [found, setFound] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    deletedObjects(namespace).then(
      (items) =>
        setFound(
          items.find((d) => d.target.resource === r.resource && (d.target.group ?? '') === (r.group ?? '') && d.target.name === name) ??
            null,
        ),
      (err) => setError(err.code === 404 ? 'No ledger of deletions (--history-retention=0).' : err.message),
    );
  }, []);
  if (error) return html`<p id="restore-unavailable">${error}</p>`;
  if (found === undefined) return html`<p>Looking for its deletion…</p>`;
  if (found === null) return html`<p id="restore-unavailable">No deletion of it in the ledger's window.</p>`;
  return html`<div id="restore-one"><${RestoreBox} deleted=${found} /></div>`;
}

/** The Deleted page: what was deleted in a namespace (or everywhere), newest first, each restorable. */
export function Deleted() {
  const [namespace, setNamespace] = useState(sessionStorage.getItem('orch.namespace') ?? '');
  const [items, setItems] = useState(undefined);
  const [error, setError] = useState('');
  const [round, setRound] = useState(0);
  useEffect(() => {
    setItems(undefined);
    setError('');
    // An answer for a namespace no longer asked about is dropped.
    let live = true;
    deletedObjects(namespace).then(
      (all) => live && setItems(all.sort((a, b) => Number(b.deletion.resourceVersion) - Number(a.deletion.resourceVersion))),
      (err) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [namespace, round]);
  return html`<div id="deleted">
    <h2>Deleted objects</h2>
    <form
      id="deleted-filter"
      onSubmit=${(e) => {
        e.preventDefault();
        setNamespace(e.target.elements.namespace.value.trim());
        setRound(round + 1);
      }}
    >
      Namespace: <${NamespaceInput} id="deleted-namespace" name="namespace" placeholder="all namespaces" value=${namespace} />
      <button type="submit">Show</button>
    </form>
    ${error && html`<p class="error" id="deleted-error">${error}</p>`}
    ${items && items.length === 0 && html`<p>Nothing deleted in the ledger's window.</p>`}
    ${
      items &&
      html`<ul id="deleted-list">
        ${items.map(
          (d) => html`<li class="deleted-item">
            ${d.target.kind} <a href=${objectHref({ group: d.target.group, version: d.target.apiVersion.split('/').pop(), resource: d.target.resource }, d.target.namespace, d.target.name)}
              >${d.target.namespace ? `${d.target.namespace}/` : ''}${d.target.name}</a>
            <${RestoreBox} deleted=${d} />
          </li>`,
        )}
      </ul>`
    }
  </div>`;
}
