// The console's shell: sign-in, the navigation and the hash router (#/overview, #/objects, …).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { group, learnDomain, post, token, UNAUTHORIZED_EVENT } from './api.js';
import { html } from './html.js';
import { Overview } from './overview.js';
import { Objects } from './objects.js';
import { ObjectPage } from './object-page.js';
import { Events } from './events.js';
import { Access } from './access.js';
import { Deleted } from './restore.js';

const PAGES = [
  ['overview', 'Overview'],
  ['objects', 'Objects'],
  ['events', 'Events'],
  ['deleted', 'Deleted'],
  ['access', 'Access'],
];

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash.replace(/^#\/?/, '').split('?')[0];
}

function SignIn({ onSignedIn, message }) {
  const [value, setValue] = useState('');
  const submit = (e) => {
    e.preventDefault();
    onSignedIn(value.trim());
  };
  return html`<main>
    <h1>orch console</h1>
    <form id="signin" onSubmit=${submit}>
      <p>Sign in with a bearer token the API accepts (it stays in this tab only), or open this page in a browser that presents a client certificate the API accepts.</p>
      <input id="token" type="password" size="60" value=${value} onInput=${(e) => setValue(e.target.value)} />
      <button type="submit">Sign in</button>
    </form>
    ${message && html`<p class="error" id="signin-error">${message}</p>`}
  </main>`;
}

function App() {
  const route = useHash();
  const [who, setWho] = useState(undefined);
  const [message, setMessage] = useState('');
  const check = async () => {
    if (!token.get()) return setWho((await byCertificate()) ?? null);
    try {
      const review = await fetchWho();
      setWho(review.status.userInfo);
      setMessage('');
    } catch (err) {
      token.clear();
      setWho(null);
      setMessage(
        err.code === 401
          ? 'The API did not accept this token (401 Unauthorized): it is wrong or expired.'
          : `Sign-in failed: ${err.message}`,
      );
    }
  };
  useEffect(() => {
    check();
  }, []);
  // A token refused after sign-in (expired, revoked): back to the sign-in form, saying why.
  useEffect(() => {
    if (!who) return;
    const on = () => {
      token.clear();
      setWho(null);
      setMessage('The API no longer accepts this token (401 Unauthorized): it expired or was revoked. Sign in again.');
    };
    addEventListener(UNAUTHORIZED_EVENT, on);
    return () => removeEventListener(UNAUTHORIZED_EVENT, on);
  }, [who]);
  if (who === undefined) return html`<main>Signing in…</main>`;
  if (who === null)
    return html`<${SignIn}
      message=${message}
      onSignedIn=${(t) => {
        token.set(t);
        check();
      }}
    />`;
  const [page, ...rest] = route.split('/');
  const current = page || 'overview';
  const signOut = () => {
    token.clear();
    setWho(null);
  };
  return html`<div>
    <header>
      <strong>orch</strong>
      ${PAGES.map(([id, title]) => html`<a href="#/${id}" id="nav-${id}" class=${current === id ? 'active' : ''}>${title}</a>`)}
      <span class="who" id="whoami">${who.username}</span>
      ${
        who.byCertificate
          ? html`<span id="signed-in-by" title="The browser presents a client certificate the API accepts; another identity needs a browser profile without it.">client certificate</span>`
          : html`<button onClick=${signOut}>Sign out</button>`
      }
    </header>
    <main>${pageOf(current, rest.map(decodeURIComponent))}</main>
  </div>`;
}

function pageOf(page, rest) {
  if (page === 'objects' && rest.length >= 4) return html`<${ObjectPage} key=${rest.join('/')} path=${rest} />`;
  if (page === 'objects') return html`<${Objects} />`;
  if (page === 'events') return html`<${Events} />`;
  if (page === 'access') return html`<${Access} />`;
  if (page === 'deleted') return html`<${Deleted} />`;
  if (page === 'overview' && rest.length === 0) return html`<${Overview} />`;
  return html`<p class="error" id="no-such-page">There is no console page #/${[page, ...rest].join('/')}. <a href="#/overview">Overview</a></p>`;
}

/**
 * Who the browser is without a token: a client certificate it presents (TLS authenticates it, no
 * token needed), or nobody (the anonymous, whom the API refuses or names system:anonymous).
 */
async function byCertificate() {
  try {
    const user = (await fetchWho()).status?.userInfo;
    return user?.username && user.username !== 'system:anonymous' ? { ...user, byCertificate: true } : undefined;
  } catch {
    return undefined;
  }
}

/** Who the token is, by SelfSubjectReview (any authenticated user may ask). */
export async function fetchWho() {
  await learnDomain();
  const g = group('authentication');
  return post(`/apis/${g}/v1/selfsubjectreviews`, { apiVersion: `${g}/v1`, kind: 'SelfSubjectReview' });
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
