// Objects: the kinds by API group, a namespace filter, the kind's table with the server's printer
// columns (kept live: a watch event asks the server for the table again), a selector box.
import { useEffect, useState } from 'preact/hooks';
import { get, group, listWatch, post, tableAccept } from './api.js';
import { collectionPath, discover, objectHref } from './discovery.js';
import { html } from './html.js';
import { NamespaceInput } from './namespace-input.js';

/** The resources the user may list in the namespace ('' → everywhere: undefined, not checked). */
async function listable(namespace) {
  if (!namespace) return undefined;
  const g = group('authorization');
  const review = await post(`/apis/${g}/v1/selfsubjectrulesreviews`, {
    apiVersion: `${g}/v1`,
    kind: 'SelfSubjectRulesReview',
    spec: { namespace },
  });
  const rules = review.status?.resourceRules ?? [];
  return (r) =>
    rules.some(
      (rule) =>
        (rule.verbs.includes('*') || rule.verbs.includes('list')) &&
        (rule.apiGroups.includes('*') || rule.apiGroups.includes(r.group)) &&
        (rule.resources.includes('*') || rule.resources.includes(r.resource)),
    );
}

/**
 * The longest selector sent: the server takes a request line up to 1 MiB (a longer one is a 431 with
 * no Status to show), and no real selector comes near this.
 */
const MAX_SELECTOR = 64 * 1024;

export function Objects() {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const [kinds, setKinds] = useState([]);
  // What the user may list, and for which namespace it was asked ({ namespace, f }).
  const [may, setMay] = useState(undefined);
  const [namespace, setNamespace] = useState(params.get('namespace') ?? sessionStorage.getItem('orch.namespace') ?? '');
  const [selected, setSelected] = useState(undefined);
  const [labelSelector, setLabelSelector] = useState('');
  const [fieldSelector, setFieldSelector] = useState('');
  const [applied, setApplied] = useState({ labelSelector: '', fieldSelector: '' });
  const [error, setError] = useState('');
  const [tooLong, setTooLong] = useState(0);
  useEffect(() => {
    discover().then(setKinds, (err) => setError(err.message));
  }, []);
  useEffect(() => {
    sessionStorage.setItem('orch.namespace', namespace);
    let live = true;
    listable(namespace).then(
      (f) => live && setMay({ namespace, f }),
      () => live && setMay({ namespace, f: undefined }),
    );
    return () => {
      live = false;
    };
  }, [namespace]);
  // The kinds are drawn once the answer for this namespace is in (everywhere needs none): drawn with the
  // previous namespace's rules first, the list would shift under the pointer when the answer came.
  const ready = namespace === '' || may?.namespace === namespace;
  const allowed = namespace === '' ? undefined : may?.f;
  const shown = ready ? kinds.filter((k) => (namespace ? k.namespaced : true) && (!allowed || allowed(k))) : [];
  const groups = new Map();
  for (const k of shown) groups.set(k.group || 'core', [...(groups.get(k.group || 'core') ?? []), k]);
  return html`<div id="objects">
    <h2>Objects</h2>
    <p>
      Namespace: <${NamespaceInput} id="namespace" placeholder="all namespaces" value=${namespace} onApply=${setNamespace} />
    </p>
    ${error && html`<p class="error">${error}</p>`}
    <nav class="kinds" id="kinds">
      ${[...groups].map(
        ([g, ks]) => html`<div><b>${g}</b>
          <ul>
            ${ks.map(
              (k) => html`<li>
                <a href="#/objects" id="kind-${k.group || 'core'}-${k.resource}" onClick=${(e) => {
                  e.preventDefault();
                  setSelected(k);
                }}>${k.kind}</a>
              </li>`,
            )}
          </ul>
        </div>`,
      )}
    </nav>
    <section class="table">
      <form
        id="selectors"
        onSubmit=${(e) => {
          e.preventDefault();
          const long = [labelSelector, fieldSelector].find((x) => x.length > MAX_SELECTOR);
          if (long !== undefined) return setTooLong(long.length);
          setTooLong(0);
          setApplied({ labelSelector, fieldSelector });
        }}
      >
        <input class="selector" id="label-selector" placeholder="label selector, e.g. app=web" value=${labelSelector} onInput=${(e) => setLabelSelector(e.target.value)} />
        <input class="selector" id="field-selector" placeholder="field selector, e.g. status.phase=Running" value=${fieldSelector} onInput=${(e) => setFieldSelector(e.target.value)} />
        <button type="submit">Apply</button>
      </form>
      ${tooLong > 0 && html`<p class="error" id="selector-error">The selector is too long (${tooLong.toLocaleString('en')} characters; at most ${MAX_SELECTOR.toLocaleString('en')}): not sent.</p>`}
      ${selected ? html`<${KindTable} key=${`${selected.group}/${selected.resource}/${namespace}/${applied.labelSelector}/${applied.fieldSelector}`} r=${selected} namespace=${namespace} selectors=${applied} />` : html`<p>Pick a kind.</p>`}
    </section>
  </div>`;
}

function KindTable({ r, namespace, selectors }) {
  const [table, setTable] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    const q = new URLSearchParams();
    if (selectors.labelSelector) q.set('labelSelector', selectors.labelSelector);
    if (selectors.fieldSelector) q.set('fieldSelector', selectors.fieldSelector);
    const path = collectionPath(r, namespace);
    let timer;
    let latest = 0;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const mine = ++latest;
        try {
          const t = await get(`${path}?${q}`, tableAccept());
          if (mine === latest) {
            setTable(t);
            setError('');
          }
        } catch (err) {
          if (mine === latest) setError(err.message);
        }
      }, 200);
    };
    // The watch says when something changed; the table is then asked again (a list per change, not a poll).
    const stop = listWatch(path, q.toString(), refresh, (err) => setError(err.message));
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);
  if (error) return html`<p class="error" id="table-error">${r.kind}: ${error}</p>`;
  if (!table) return html`<p>Loading ${r.kind}…</p>`;
  const cols = table.columnDefinitions ?? [];
  return html`<table id="object-table" data-kind=${r.kind}>
    <tr>${!namespace && r.namespaced && html`<th>Namespace</th>`}${cols.map((c) => html`<th>${c.name}</th>`)}</tr>
    ${(table.rows ?? []).map((row) => {
      const meta = row.object?.metadata ?? {};
      return html`<tr>
        ${!namespace && r.namespaced && html`<td>${meta.namespace}</td>`}
        ${row.cells.map((c, i) => (i === 0 ? html`<td><a class="object-link" href=${objectHref(r, meta.namespace, meta.name ?? c)}>${String(c)}</a></td>` : html`<td>${String(c)}</td>`))}
      </tr>`;
    })}
  </table>`;
}
