// Overview: health checks, storage objects per kind, and request rate, latency and errors per verb
// from the server's own /metrics, sampled every few seconds (a metrics scrape, not a list).
import { useEffect, useState } from 'preact/hooks';
import { text } from './api.js';
import { Chart } from './chart.js';
import { ClusterCards } from './cluster.js';
import { html } from './html.js';
import { parseMetrics, quantile } from './metrics.js';

// A scrape of /metrics costs the server ~5-7 ms of CPU (the stored objects' counts come from the
// watch cache, not the store): every 5 s, ~0.1% of a core for an open overview (bench: console-idle-overview).
const SAMPLE_MS = 5000;
const KEEP = 60; // 5 minutes of samples
const WANTED = new Set([
  'apiserver_request_total',
  'apiserver_request_duration_seconds_bucket',
  'apiserver_current_inflight_requests',
  'apiserver_longrunning_requests',
  'apiserver_storage_objects',
]);

function Health({ name }) {
  const [state, setState] = useState({ text: 'checking…' });
  useEffect(() => {
    let stop = false;
    const probe = async () => {
      try {
        const body = await text(`/${name}?verbose`);
        if (!stop) setState({ ok: true, text: body });
      } catch (err) {
        if (!stop) setState({ ok: false, text: err.message });
      }
    };
    probe();
    const t = setInterval(probe, 10_000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [name]);
  return html`<div class="card" id="health-${name}">
    <h3 class=${state.ok ? 'ok' : state.ok === false ? 'bad' : ''}>/${name} ${state.ok ? 'ok' : state.ok === false ? 'failing' : ''}</h3>
    <pre>${state.text}</pre>
  </div>`;
}

/** Per verb: total requests, errors (5xx), 429s, and cumulative latency buckets. */
function summarize(samples) {
  const verbs = {};
  const v = (name) => {
    verbs[name] ??= { total: 0, errors: 0, throttled: 0, buckets: new Map() };
    return verbs[name];
  };
  let inflight = 0;
  let watches = 0;
  const objects = [];
  for (const s of samples) {
    if (s.name === 'apiserver_request_total') {
      const x = v(s.labels.verb);
      x.total += s.value;
      if (s.labels.code?.startsWith('5')) x.errors += s.value;
      if (s.labels.code === '429') x.throttled += s.value;
    } else if (s.name === 'apiserver_request_duration_seconds_bucket') {
      const b = v(s.labels.verb).buckets;
      const le = s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels.le);
      b.set(le, (b.get(le) ?? 0) + s.value);
    } else if (s.name === 'apiserver_current_inflight_requests') inflight += s.value;
    else if (s.name === 'apiserver_longrunning_requests' && s.labels.verb === 'WATCH') watches += s.value;
    else if (s.name === 'apiserver_storage_objects') objects.push([s.labels.resource, s.value]);
  }
  return { verbs, inflight, watches, objects };
}

/** The rates and quantiles between two scrapes, per verb. */
function between(prev, cur, seconds) {
  const out = {};
  for (const [verb, c] of Object.entries(cur.verbs)) {
    const p = prev.verbs[verb] ?? { total: 0, errors: 0, throttled: 0, buckets: new Map() };
    const delta = [...c.buckets].map(([le, n]) => ({ le, count: n - (p.buckets.get(le) ?? 0) }));
    out[verb] = {
      rate: (c.total - p.total) / seconds,
      errors: (c.errors - p.errors) / seconds,
      throttled: c.throttled - p.throttled,
      p50: quantile(0.5, delta) * 1000,
      p99: quantile(0.99, delta) * 1000,
    };
  }
  return out;
}

// As Kubernetes' request metrics name them (a create is POST, an update PUT).
const VERBS = ['GET', 'LIST', 'WATCH', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function Overview() {
  const [series, setSeries] = useState({ t: [], rows: [] });
  const [latest, setLatest] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let prev;
    let stop = false;
    const sample = async () => {
      try {
        const cur = { at: Date.now() / 1000, ...summarize(parseMetrics(await text('/metrics'), WANTED)) };
        if (stop) return;
        setError('');
        setLatest(cur);
        if (prev) {
          const r = between(prev, cur, cur.at - prev.at);
          setSeries((s) => ({ t: [...s.t, cur.at].slice(-KEEP), rows: [...s.rows, r].slice(-KEEP) }));
        }
        prev = cur;
      } catch (err) {
        if (!stop) setError(`/metrics: ${err.message}`);
      }
    };
    sample();
    const t = setInterval(sample, SAMPLE_MS);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, []);
  const col = (f) => VERBS.map((verb) => series.rows.map((r) => (r[verb] ? f(r[verb]) : 0)));
  const nan0 = (x) => (Number.isFinite(x) ? x : null);
  const throttled = series.rows.reduce((n, r) => n + Object.values(r).reduce((m, x) => m + x.throttled, 0), 0);
  return html`<div id="overview">
    <h2>Overview</h2>
    <div class="cards">
      <${Health} name="livez" />
      <${Health} name="readyz" />
      <${ClusterCards} />
      ${
        latest &&
        html`<div class="card" id="gauges">
          <h3>Now</h3>
          <p>In-flight requests: <b id="inflight">${latest.inflight}</b></p>
          <p>Open watches: <b id="watches">${latest.watches}</b></p>
          <p>429s in the window: <b id="throttled">${throttled}</b></p>
        </div>`
      }
      ${
        latest &&
        html`<div class="card" id="object-counts">
          <h3>Stored objects</h3>
          <table>
            ${latest.objects
              .filter(([, n]) => n > 0)
              .sort((a, b) => b[1] - a[1])
              .map(([r, n]) => html`<tr><td>${r}</td><td>${n}</td></tr>`)}
          </table>
        </div>`
      }
    </div>
    ${error && html`<p class="error">${error}</p>`}
    <div class="charts">
      <${Chart} id="chart-rate" title="Requests/s by verb" names=${VERBS} data=${[series.t, ...col((x) => x.rate)]} />
      <${Chart} id="chart-p50" title="Latency p50 (ms)" names=${VERBS} data=${[series.t, ...col((x) => nan0(x.p50))]} />
      <${Chart} id="chart-p99" title="Latency p99 (ms)" names=${VERBS} data=${[series.t, ...col((x) => nan0(x.p99))]} />
      <${Chart} id="chart-errors" title="5xx/s by verb" names=${VERBS} data=${[series.t, ...col((x) => x.errors)]} />
    </div>
  </div>`;
}
