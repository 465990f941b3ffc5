// One object: its YAML (live), owners and dependents (links), its events (live), and its history
// from the revision ledger as a timeline with a diff between two revisions.
import { useEffect, useState } from 'preact/hooks';
import YAML from 'yaml';
import { get, listWatch } from './api.js';
import { collectionPath, discover, objectHref, resourceOfKind } from './discovery.js';
import { html } from './html.js';
import { lineDiff } from './line-diff.js';
import { statesOf } from './json-patch.js';
import { RestoreOne } from './restore.js';

const yaml = (o) => YAML.stringify(o);

export function ObjectPage({ path }) {
  const [g, version, resource, ns, name] = path;
  const namespace = ns === '-' ? '' : ns;
  const [r, setR] = useState(undefined);
  const [obj, setObj] = useState(undefined);
  const [error, setError] = useState('');
  const [kinds, setKinds] = useState(false);
  useEffect(() => {
    discover().then(
      (all) => {
        setR(all.find((x) => (x.group || 'core') === g && x.version === version && x.resource === resource));
        setKinds(true);
      },
      (err) => setError(err.message),
    );
  }, []);
  useEffect(() => {
    if (!r) return;
    // One object, live: a list and watch narrowed to its name.
    return listWatch(
      collectionPath(r, namespace),
      `fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`,
      (items) => setObj([...items.values()][0] ?? null),
      (err) => setError(err.message),
    );
  }, [r]);
  if (error) return html`<p class="error" id="object-error">${error}</p>`;
  if (r === undefined && kinds) return html`<p class="error" id="object-error">This server serves no ${resource} in ${g}/${version}.</p>`;
  if (!r || obj === undefined) return html`<p>Loading…</p>`;
  return html`<div id="object-page">
    <h2>${r.kind} ${namespace && `${namespace}/`}${name}</h2>
    ${obj === null ? html`<div id="object-gone"><p>This object does not exist (now).</p><${RestoreOne} r=${r} namespace=${namespace} name=${name} /></div>` : html`<${Relations} obj=${obj} />`}
    <${History} r=${r} namespace=${namespace} name=${name} />
    <${ObjectEvents} namespace=${namespace} name=${name} kind=${r.kind} />
    ${obj && html`<h3>YAML</h3><pre id="object-yaml">${yaml(obj)}</pre>`}
  </div>`;
}

function OwnerLink({ owner, namespace }) {
  const [href, setHref] = useState('');
  useEffect(() => {
    resourceOfKind(owner.apiVersion, owner.kind).then((o) => o && setHref(objectHref(o, o.namespaced ? namespace : '', owner.name)));
  }, []);
  return html`<li>${owner.kind} ${href ? html`<a class="owner-link" href=${href}>${owner.name}</a>` : owner.name}</li>`;
}

/** The kinds whose objects are commonly owned, watched in the object's namespace for its dependents. */
const DEPENDENT_KINDS = ['replicasets', 'pods', 'jobs', 'controllerrevisions'];

function Relations({ obj }) {
  const namespace = obj.metadata.namespace ?? '';
  const [deps, setDeps] = useState({});
  useEffect(() => {
    if (!namespace) return;
    let stops = [];
    discover().then((all) => {
      stops = all
        .filter((x) => DEPENDENT_KINDS.includes(x.resource) && x.namespaced)
        .map((x) =>
          listWatch(collectionPath(x, namespace), 'limit=500', (items) => {
            const mine = [...items.values()].filter((o) => o.metadata.ownerReferences?.some((ref) => ref.uid === obj.metadata.uid));
            setDeps((d) => ({ ...d, [x.resource]: { r: x, items: mine } }));
          }),
        );
    });
    return () => {
      for (const s of stops) s();
    };
  }, [obj.metadata.uid]);
  const owners = obj.metadata.ownerReferences ?? [];
  const dependents = Object.values(deps).flatMap(({ r: x, items }) => items.map((o) => ({ r: x, o })));
  return html`<div class="cards">
    <div class="card" id="owners"><h3>Owners</h3>
      <ul>${owners.map((o) => html`<${OwnerLink} owner=${o} namespace=${namespace} />`)}</ul>
      ${owners.length === 0 && 'none'}
    </div>
    <div class="card" id="dependents"><h3>Dependents</h3>
      <ul>
        ${dependents.map(({ r: x, o }) => html`<li>${x.kind} <a class="dependent-link" data-kind=${x.kind} href=${objectHref(x, namespace, o.metadata.name)}>${o.metadata.name}</a> ${o.status?.phase ?? ''}</li>`)}
      </ul>
      ${dependents.length === 0 && 'none'}
    </div>
    ${obj.spec?.selector?.matchLabels && namespace && html`<${SelectedPods} namespace=${namespace} labels=${obj.spec.selector.matchLabels} />`}
  </div>`;
}

/** The Pods a workload's selector picks, live (a Deployment's Pods are its ReplicaSets' dependents). */
function SelectedPods({ namespace, labels }) {
  const [pods, setPods] = useState([]);
  const selector = Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  useEffect(
    () =>
      listWatch(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`, `labelSelector=${encodeURIComponent(selector)}`, (items) =>
        setPods([...items.values()]),
      ),
    [selector],
  );
  return html`<div class="card" id="pods"><h3>Pods (${selector})</h3>
    <ul>${pods.map((p) => html`<li class="pod" data-name=${p.metadata.name}><a href=${`#/objects/core/v1/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(p.metadata.name)}`}>${p.metadata.name}</a> ${p.status?.phase ?? ''}</li>`)}</ul>
  </div>`;
}

function ObjectEvents({ namespace, name, kind }) {
  const [events, setEvents] = useState([]);
  const [error, setError] = useState('');
  useEffect(
    () =>
      listWatch(
        namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events',
        `fieldSelector=${encodeURIComponent(`involvedObject.name=${name},involvedObject.kind=${kind}`)}`,
        (items) => setEvents([...items.values()]),
        (err) => setError(err.message),
      ),
    [],
  );
  return html`<div id="object-events"><h3>Events</h3>
    ${error && html`<p class="error">${error}</p>`}
    <table>${events.map((e) => html`<tr><td>${e.type}</td><td>${e.reason}</td><td>${e.message}</td><td>${e.lastTimestamp ?? e.eventTime ?? ''}</td></tr>`)}</table>
  </div>`;
}

function History({ r, namespace, name }) {
  const [list, setList] = useState(undefined);
  const [error, setError] = useState('');
  const [pick, setPick] = useState([]);
  const [diff, setDiff] = useState(undefined);
  useEffect(() => {
    get(`${collectionPath(r, namespace)}/${encodeURIComponent(name)}/history`).then(setList, (err) =>
      setError(err.code === 404 ? 'No history (the revision ledger is off: --history-retention=0, or this object has none).' : err.message),
    );
  }, []);
  useEffect(() => {
    if (pick.length !== 2) return setDiff(undefined);
    const [a, b] = [...pick].sort((x, y) => Number(x) - Number(y));
    try {
      const states = statesOf(list.items);
      const text = (rv) => (states.get(rv) ? yaml(states.get(rv)) : '');
      setDiff({ a, b, lines: lineDiff(text(a), text(b)) });
    } catch (err) {
      setDiff({ a, b, error: err.message });
    }
  }, [pick.join()]);
  const toggle = (rv) => setPick((p) => (p.includes(rv) ? p.filter((x) => x !== rv) : [...p, rv].slice(-2)));
  return html`<div id="history"><h3>History</h3>
    ${error && html`<p>${error}</p>`}
    ${
      list &&
      html`<p>Pick two revisions to compare.</p>
        <table id="history-timeline">
          ${list.items.map(
            (rev) => html`<tr>
              <td><input type="checkbox" class="revision" data-rv=${rev.resourceVersion} checked=${pick.includes(rev.resourceVersion)} onChange=${() => toggle(rev.resourceVersion)} /></td>
              <td>${rev.time}</td><td>${rev.operation}</td><td>${rev.user}</td><td>${rev.fieldManager ?? ''}</td><td>rv ${rev.resourceVersion}</td>
            </tr>`,
          )}
        </table>`
    }
    ${
      diff &&
      html`<div id="history-diff"><h4>rv ${diff.a} → rv ${diff.b}</h4>
        ${diff.error && html`<p class="error">${diff.error}</p>`}
        ${diff.lines === undefined && !diff.error && html`<p>Too large to diff here.</p>`}
        <pre>${(diff.lines ?? []).map((l) => html`<div class=${l.op === '+' ? 'diff-add' : l.op === '-' ? 'diff-del' : ''}>${l.op} ${l.line}</div>`)}</pre>
      </div>`
    }
  </div>`;
}
