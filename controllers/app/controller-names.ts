/**
 * Which of the controllers orch-controller-manager knows (known-controllers.ts, by kube-controller-
 * manager's names with their older aliases) --controllers enables: entries are read in order and the
 * first that names a controller (`name` or `-name`) decides; otherwise `*` enables the default-on ones.
 */
import { KNOWN_CONTROLLERS } from './known-controllers.js';

function canonical(name: string): string | undefined {
  return KNOWN_CONTROLLERS.find((c) => c.name === name || c.aliases.includes(name))?.name;
}

/**
 * The canonical names --controllers enables, in KNOWN_CONTROLLERS order. Throws on a name that is
 * not known (as kube-controller-manager's validation does).
 */
export function enabledControllers(entries: readonly string[]): string[] {
  const resolved = entries.map((entry) => {
    if (entry === '*') return entry;
    const negated = entry.startsWith('-');
    const name = canonical(negated ? entry.slice(1) : entry);
    if (!name) throw new Error(`${JSON.stringify(negated ? entry.slice(1) : entry)} is not in the list of known controllers`);
    return negated ? `-${name}` : name;
  });
  return KNOWN_CONTROLLERS.filter((c) => {
    for (const entry of resolved) {
      if (entry === c.name) return true;
      if (entry === `-${c.name}`) return false;
    }
    return resolved.includes('*') && c.defaultOn;
  }).map((c) => c.name);
}
