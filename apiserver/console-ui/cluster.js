// The overview's cluster cards: the storage backend and its health, the server's workers (from the
// server's /debug/cluster, authorized by RBAC like /metrics), the API server replicas sharing the
// store (their identity Leases) and the leaders of the system's other Leases (the controller
// manager's among them), both watched through the API.
import { useEffect, useState } from 'preact/hooks';
import { get, group, identitySelector, labelPrefix, listWatch, systemNamespace } from './api.js';
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
      <${Replicas} self=${status?.server.identity} />
      <${Leaders} />
    </div>`;
}

/** A replica renewing every 10 s is live; past three missed renewals it is said not to renew. */
const LIVE_MS = 30_000;

const ago = (ms) =>
  ms < 90_000
    ? `${Math.round(ms / 1000)} s ago`
    : ms < 5_400_000
      ? `${Math.round(ms / 60_000)} min ago`
      : `${(ms / 3_600_000).toFixed(1)} h ago`;

function replicaState(lease, now) {
  const renewed = Date.parse(lease.spec?.renewTime ?? '');
  if (Number.isNaN(renewed)) return { state: 'expired', text: 'never renewed' };
  const age = Math.max(0, now - renewed);
  if (age > (lease.spec?.leaseDurationSeconds ?? 0) * 1000) return { state: 'expired', text: `expired, renewed ${ago(age)}` };
  return age <= LIVE_MS ? { state: 'live', text: `live, renewed ${ago(age)}` } : { state: 'stale', text: `not renewing, last ${ago(age)}` };
}

/**
 * The API server replicas sharing the store, live: the identity Lease each keeps in the system
 * namespace (renewed every 10 s), read with the user's identity; `self` is the one answering /debug/cluster.
 */
function Replicas({ self }) {
  const [leases, setLeases] = useState([]);
  const [error, setError] = useState('');
  const [now, setNow] = useState(Date.now());
  const ns = systemNamespace();
  const selector = identitySelector();
  useEffect(
    () =>
      listWatch(
        `/apis/${group('coordination')}/v1/namespaces/${ns}/leases`,
        `labelSelector=${encodeURIComponent(selector)}`,
        (items) => {
          setNow(Date.now());
          setLeases([...items.values()]);
        },
        (err) => setError(err.message),
      ),
    [],
  );
  // A replica that stopped renewing sends nothing: the states age by the clock too.
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(t);
  }, []);
  const rows = leases.map((l) => ({ l, ...replicaState(l, now) })).sort((a, b) => a.l.metadata.name.localeCompare(b.l.metadata.name));
  const live = rows.filter((r) => r.state === 'live').length;
  return html`<div id="replicas">
    <h4>Replicas (identity Leases in ${ns})</h4>
    ${error && html`<p class="error" id="replicas-error">The replicas are read from their identity Leases (${selector}) in ${ns}: ${error}</p>`}
    ${!error && html`<p>Live replicas: <b id="replica-count">${live}</b></p>`}
    ${!error && leases.length === 0 && html`<p>No identity Lease (the servers run with APIServerIdentity off, or none has renewed yet).</p>`}
    <table>
      ${rows.map(
        ({
          l,
          state,
          text,
        }) => html`<tr class="replica" data-name=${l.metadata.name} data-state=${state} data-self=${String(l.metadata.name === self?.lease)}>
          <td>${l.metadata.name}${l.metadata.name === self?.lease ? ' (answering)' : ''}</td>
          <td class="host">${l.metadata.labels?.[`${labelPrefix()}/hostname`] ?? ''}</td>
          <td class="holder">${l.spec?.holderIdentity ?? ''}</td><td class="state ${state === 'live' ? 'ok' : 'bad'}">${text}</td>
        </tr>`,
      )}
    </table>
  </div>`;
}

/** The Leases of the system namespace but the identity ones, live: who leads each (the controller manager's among them). */
function Leaders() {
  const [leases, setLeases] = useState([]);
  const [error, setError] = useState('');
  const ns = systemNamespace();
  const identityKey = identitySelector().split('=')[0];
  useEffect(
    () =>
      listWatch(
        `/apis/${group('coordination')}/v1/namespaces/${ns}/leases`,
        'limit=100',
        (items) => setLeases([...items.values()].filter((l) => l.metadata.labels?.[identityKey] === undefined)),
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
