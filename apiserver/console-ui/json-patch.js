// RFC 6902 JSON patch, applied to a copy: the ledger's revisions are patches from the one before,
// so each revision's object is the oldest one with the later patches applied in order.
const unescapeToken = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function walk(doc, path) {
  const parts = path.split('/').slice(1).map(unescapeToken);
  const last = parts.pop();
  let parent = doc;
  for (const p of parts) parent = parent?.[Array.isArray(parent) ? Number(p) : p];
  if (parent === null || typeof parent !== 'object') throw new Error(`patch path ${path} does not exist`);
  return { parent, last };
}

function getAt(doc, path) {
  if (path === '') return doc;
  const { parent, last } = walk(doc, path);
  return parent[Array.isArray(parent) ? Number(last) : last];
}

function remove(doc, path) {
  const { parent, last } = walk(doc, path);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
}

function add(doc, path, value, replace) {
  if (path === '') return structuredClone(value);
  const { parent, last } = walk(doc, path);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    parent.splice(i, replace ? 1 : 0, structuredClone(value));
  } else parent[last] = structuredClone(value);
  return doc;
}

export function applyPatch(doc, ops) {
  let out = structuredClone(doc);
  for (const op of ops) {
    if (op.op === 'add') out = add(out, op.path, op.value, false);
    else if (op.op === 'replace') out = add(out, op.path, op.value, true);
    else if (op.op === 'remove') remove(out, op.path);
    else if (op.op === 'copy') out = add(out, op.path, getAt(out, op.from), false);
    else if (op.op === 'move') {
      const v = getAt(out, op.from);
      remove(out, op.from);
      out = add(out, op.path, v, false);
    }
  }
  return out;
}

/** The object after each revision (the list newest first, as the ledger answers), by resourceVersion. */
export function statesOf(revisions) {
  const states = new Map();
  let cur = null;
  for (const rev of [...revisions].reverse()) {
    if (rev.operation === 'delete') cur = null;
    else cur = applyPatch(cur, rev.patch ?? []);
    states.set(rev.resourceVersion, cur);
  }
  return states;
}
