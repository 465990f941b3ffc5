// The namespace box of the Objects, Deleted and Access pages. What is typed is kept in the box's own
// state: Preact writes a controlled input's value back on every render, so with the applied namespace
// as its value an answer landing between typing and Enter would put the old namespace over the text.
import { useState } from 'preact/hooks';
import { html } from './html.js';

/** onApply(namespace) on change (Enter or leaving the box), trimmed; `name` for a form that reads it. */
export function NamespaceInput({ id, name, placeholder, value, onApply }) {
  const [draft, setDraft] = useState(value);
  return html`<input
    id=${id}
    name=${name}
    placeholder=${placeholder}
    value=${draft}
    onInput=${(e) => setDraft(e.target.value)}
    onChange=${onApply && ((e) => onApply(e.target.value.trim()))}
  />`;
}
