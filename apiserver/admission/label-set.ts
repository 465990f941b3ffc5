/** A label set written as a selector string ("a=b,c=d"), as Kubernetes' ConvertSelectorToLabelsMap. */
export function parseLabelSet(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const s = part.trim();
    if (!s) continue;
    const m = /^([^=!\s]+)\s*==?\s*([^=\s]*)$/.exec(s);
    if (!m) throw new Error(`invalid selector: ${JSON.stringify(text)}`);
    out[m[1]] = m[2];
  }
  return out;
}

/** Two label sets that give one key different values. */
export function labelsConflict(a: Record<string, string>, b: Record<string, string>): boolean {
  return Object.entries(a).some(([k, v]) => b[k] !== undefined && b[k] !== v);
}
