/**
 * What the differential checker ignores when it compares two answers: values each server makes up on
 * its own (uids, timestamps, resourceVersions, continue tokens, allocated cluster IPs and node ports,
 * the random suffix of generated names, including the service-account token volume's, and uids
 * wherever they are copied). Each is replaced by a placeholder, so its presence is still
 * compared, its value not.
 */

/** Keys whose values are made up by the server wherever they appear. */
const VOLATILE_KEYS = new Set([
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'lastTransitionTime',
  'lastUpdateTime',
  'lastHeartbeatTime',
  'lastProbeTime',
  'firstTimestamp',
  'lastTimestamp',
  'eventTime',
  'time',
  'renewTime',
  'acquireTime',
  'clusterIP',
  'clusterIPs',
  'nodePort',
  'healthCheckNodePort',
  'continue',
]);

export const VOLATILE = '<volatile>';

/** Names the server generates inside objects: the projected service-account token volume's. */
const GENERATED_NAME = /^(kube-api-access-)[a-z0-9]{5}$/;
/** A uid wherever it is copied to (a Job's controller-uid labels and selector). */
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A copy of `value` with volatile values replaced (empty ones stay, so "" vs absent still shows). */
export function normalise(value: unknown): unknown {
  if (typeof value === 'string') return UID.test(value) ? VOLATILE : value.replace(GENERATED_NAME, `$1${VOLATILE}`);
  if (Array.isArray(value)) return value.map(normalise);
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (VOLATILE_KEYS.has(k) && v !== '' && v !== null && typeof v !== 'object') out[k] = VOLATILE;
    else if (VOLATILE_KEYS.has(k) && Array.isArray(v)) out[k] = v.map(() => VOLATILE);
    else out[k] = normalise(v);
  }
  const generateName = obj.generateName;
  if (typeof generateName === 'string' && typeof obj.name === 'string' && obj.name.startsWith(generateName))
    out.name = `${generateName}${VOLATILE}`;
  return out;
}

/** Warning headers as a sorted list of their texts (the `299 - "…"` framing dropped). */
export function normaliseWarnings(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const texts: string[] = [];
  for (const v of values) for (const m of v.matchAll(/\d{3} [^ ]+ "((?:[^"\\]|\\.)*)"/g)) texts.push(m[1]!.replace(/\\(.)/g, '$1'));
  return texts.sort();
}
