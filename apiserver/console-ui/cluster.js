// The overview's cluster cards: the storage backend and its health, the server's workers (from the
// server's /debug/cluster, authorized by RBAC like /metrics), and the leaders of the system's Leases
// (the controller manager's among them), watched through the API.
import { useEffect, useState } from 'preact/hooks';
import { get, group, listWatch, systemNamespace } from './api.js';
import { html } from './html.js';

const REFRESH_MS = 10_000;

const bytes = (n) => (n === undefined ? '?' : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

function useClusterStatus() {
  const [state, setState] = useState({});
  useEffect(() => {
    let stop = false;
    const load = async () => {
      try {
        const s = await get('/debug/cluster');
        if (!stop) setState({ status: s });
      } catch (err) {
        if (!stop) setState({ error: `/debug/cluster: ${err.message}` });
      }
    };
    load();
    const t = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, []);
  return state;
}

function Etcd({ s }) {
  return html`<p>Backend: <b id="storage-backend">etcd</b>, leader <b id="etcd-leader">${s.leader || 'none'}</b></p>
    <table id="etcd-members">
      <tr><th>Member</th><th>Client URLs</th><th>Version</th><th>DB size</th><th>In use</th></tr>
      ${s.members.map(
        (m) => html`<tr class="etcd-member" data-leader=${String(m.leader)}>
          <td>${m.name || m.id}${m.leader ? ' ★' : ''}</td><td>${m.clientURLs.join(', ')}</td><td>${m.version ?? ''}</td>
          <td class="db-size">${bytes(m.dbSize)}</td><td>${bytes(m.dbSizeInUse)}</td>
        </tr>`,
      )}
    </table>
    ${s.errors.map((e) => html`<p class="error">${e.endpoint}: ${e.message}</p>`)}`;
}

function Sqlite({ s }) {
  return html`<p>Backend: <b id="storage-backend">SQLite</b> (embedded)</p>
    <p>File: <code id="sqlite-file">${s.file}</code>, <b id="sqlite-size">${bytes(s.size)}</b></p>
    <p>WAL: <b id="sqlite-wal">${bytes(s.walSize)}</b></p>`;
}

export function ClusterCards() {
  const { status, error } = useClusterStatus();
  const storage = status?.storage;
  return html`
    <div class="card" id="storage">
      <h3>Storage</h3>
      ${error && html`<p class="error" id="storage-error">${error}</p>`}
      ${storage?.backend === 'etcd3' && html`<${Etcd} s=${storage} />`}
      ${storage?.backend === 'sqlite' && html`<${Sqlite} s=${storage} />`}
    </div>
    <div class="card" id="server">
      <h3>API server</h3>
      ${status && html`<p>Worker processes: <b id="workers">${status.server.workers}</b> (this answer from pid ${status.server.pid})</p>`}
      <${Leaders} />
    </div>`;
}

/** The Leases of the system namespace, live: who leads each (the controller manager's among them). */
function Leaders() {
  const [leases, setLeases] = useState([]);
  const [error, setError] = useState('');
  const ns = systemNamespace();
  useEffect(
    () =>
      listWatch(
        `/apis/${group('coordination')}/v1/namespaces/${ns}/leases`,
        'limit=100',
        (items) => setLeases([...items.values()]),
        (err) => setError(err.message),
      ),
    [],
  );
  return html`<div id="leaders">
    <h4>Leaders (Leases in ${ns})</h4>
    ${error && html`<p class="error" id="leaders-error">${error}</p>`}
    ${!error && leases.length === 0 && html`<p>No leader elected (no Lease in ${ns}).</p>`}
    <table>
      ${leases.map(
        (l) => html`<tr class="lease" data-name=${l.metadata.name}>
          <td>${l.metadata.name}</td><td class="holder">${l.spec?.holderIdentity ?? ''}</td><td>renewed ${l.spec?.renewTime ?? ''}</td>
        </tr>`,
      )}
    </table>
  </div>`;
}
