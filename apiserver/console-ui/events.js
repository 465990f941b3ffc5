// Events: the live event stream (a list, then a watch), filterable by namespace, type and object.
import { useEffect, useState } from 'preact/hooks';
import { listWatch } from './api.js';
import { html } from './html.js';

const SHOWN = 500;

export function Events() {
  const [namespace, setNamespace] = useState('');
  const [type, setType] = useState('');
  const [object, setObject] = useState('');
  const [events, setEvents] = useState([]);
  const [error, setError] = useState('');
  useEffect(() => {
    setError('');
    const fields = type ? `type=${type}` : '';
    const path = namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events';
    return listWatch(
      path,
      fields ? `fieldSelector=${encodeURIComponent(fields)}` : 'limit=500',
      (items) => {
        const all = [...items.values()];
        const t = (e) => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '';
        all.sort((a, b) => (t(b) > t(a) ? 1 : -1));
        setEvents(all.slice(0, SHOWN));
      },
      (err) => setError(err.message),
    );
  }, [namespace, type]);
  const shown = object
    ? events.filter((e) => `${e.involvedObject?.kind}/${e.involvedObject?.name}`.toLowerCase().includes(object.toLowerCase()))
    : events;
  return html`<div id="events">
    <h2>Events</h2>
    <p>
      Namespace <input id="events-namespace" placeholder="all" onChange=${(e) => setNamespace(e.target.value.trim())} />
      Type <select id="events-type" onChange=${(e) => setType(e.target.value)}>
        <option value="">any</option><option>Normal</option><option>Warning</option>
      </select>
      Object <input id="events-object" placeholder="kind/name contains" onInput=${(e) => setObject(e.target.value)} />
    </p>
    ${error && html`<p class="error">${error}</p>`}
    <table id="events-table">
      <tr><th>Time</th><th>Namespace</th><th>Type</th><th>Reason</th><th>Object</th><th>Message</th></tr>
      ${shown.map(
        (e) => html`<tr>
          <td>${e.lastTimestamp ?? e.eventTime ?? ''}</td><td>${e.metadata.namespace}</td><td>${e.type}</td><td>${e.reason}</td>
          <td>${e.involvedObject?.kind}/${e.involvedObject?.name}</td><td>${e.message}</td>
        </tr>`,
      )}
    </table>
  </div>`;
}
