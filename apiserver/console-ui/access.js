// Access: who the API says I am (SelfSubjectReview) and what I may do in a namespace
// (SelfSubjectRulesReview), so an empty page can be explained.
import { useEffect, useState } from 'preact/hooks';
import { group, post } from './api.js';
import { html } from './html.js';
import { NamespaceInput } from './namespace-input.js';

export function Access() {
  const [who, setWho] = useState(undefined);
  const [namespace, setNamespace] = useState(sessionStorage.getItem('orch.namespace') || 'default');
  const [rules, setRules] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    const g = group('authentication');
    post(`/apis/${g}/v1/selfsubjectreviews`, { apiVersion: `${g}/v1`, kind: 'SelfSubjectReview' }).then(
      (r) => setWho(r.status.userInfo),
      (err) => setError(err.message),
    );
  }, []);
  useEffect(() => {
    const g = group('authorization');
    post(`/apis/${g}/v1/selfsubjectrulesreviews`, { apiVersion: `${g}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace } }).then(
      (r) => setRules(r.status),
      (err) => setError(err.message),
    );
  }, [namespace]);
  return html`<div id="access">
    <h2>Access</h2>
    ${error && html`<p class="error">${error}</p>`}
    ${
      who &&
      html`<div class="card" id="who">
        <h3>Who am I</h3>
        <p>User: <b id="who-user">${who.username}</b></p>
        <p>Groups: ${(who.groups ?? []).join(', ')}</p>
      </div>`
    }
    <p>Namespace <${NamespaceInput} id="access-namespace" value=${namespace} onApply=${setNamespace} /></p>
    ${
      rules &&
      html`<table id="rules">
        <tr><th>Verbs</th><th>API groups</th><th>Resources</th><th>Names</th></tr>
        ${(rules.resourceRules ?? []).map(
          (r) =>
            html`<tr><td>${r.verbs.join(',')}</td><td>${(r.apiGroups ?? []).join(',')}</td><td>${(r.resources ?? []).join(',')}</td><td>${(r.resourceNames ?? []).join(',')}</td></tr>`,
        )}
        ${(rules.nonResourceRules ?? []).map((r) => html`<tr><td>${r.verbs.join(',')}</td><td colspan="2">${r.nonResourceURLs.join(',')}</td><td></td></tr>`)}
      </table>
      ${rules.incomplete && html`<p>The list is incomplete: ${rules.evaluationError}</p>`}`
    }
  </div>`;
}
