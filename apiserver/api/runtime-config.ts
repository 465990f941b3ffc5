/**
 * --runtime-config (Kubernetes' MergeAPIResourceConfigs): which declared group versions and resources
 * are served. Keys are `api/all`, `api/ga`, `api/beta`, `api/alpha` (true or false), `<group>/<version>`
 * and `<group>/<version>/<resource>` (a value of "" means true); the core group is `v1` or `api/v1`.
 * Version keys override the api/* ones and resource keys override both. Every declared version is
 * served by default except alpha ones and the betas Kubernetes turns off (OFF_BY_DEFAULT). Unknown groups are ignored, as in Kubernetes; an unknown version
 * of a known group is an error.
 */
import type { ResourceDef } from './resource.js';

const MATCHERS: [string, (version: string) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (v) => /^v\d+$/.test(v)],
  ['api/beta', (v) => /^v\d+beta\d+$/.test(v)],
  ['api/alpha', (v) => /^v\d+alpha\d+$/.test(v)],
];

/** Beta versions Kubernetes serves only when asked (new betas are off by default since 1.24), by their Kubernetes group. */
const OFF_BY_DEFAULT = new Set(['admissionregistration.k8s.io/v1beta1']);

/** Whether each declared resource is served; throws an Error with Kubernetes' wording for a bad entry. */
export function servedResources(defs: readonly ResourceDef[], overrides: ReadonlyMap<string, string>): (def: ResourceDef) => boolean {
  const versionOn = new Map<string, boolean>();
  const gv = (d: ResourceDef) => `${d.group}/${d.version}`;
  for (const d of defs) versionOn.set(gv(d), !/alpha/.test(d.version) && !OFF_BY_DEFAULT.has(`${d.kubernetesGroup}/${d.version}`));
  for (const [key, match] of MATCHERS) {
    const value = overrides.get(key);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
    for (const k of versionOn.keys()) if (match(k.slice(k.indexOf('/') + 1))) versionOn.set(k, value === 'true');
  }
  const groups = new Set(defs.map((d) => d.group));
  const resourceOn = new Map<string, boolean>();
  const versionPrefs: [string, boolean][] = [];
  for (const [key, value] of overrides) {
    if (MATCHERS.some(([k]) => k === key)) continue;
    const tokens = (key === 'v1' || key.startsWith('v1/') ? `api/${key}` : key).split('/');
    if (tokens.length < 2 || tokens.length > 3) continue;
    const [groupToken, version, resource] = tokens;
    const group = groupToken === 'api' ? '' : groupToken;
    if (!/^[a-z0-9][-a-z0-9.]*$/.test(version) || (group !== '' && !/^[a-z0-9][-a-z0-9.]*$/.test(group)))
      throw new Error(`invalid key ${key}`);
    if (!groups.has(group)) continue;
    if (!versionOn.has(`${group}/${version}`))
      throw new Error(`group version ${group ? `${group}/` : ''}${version} that has not been registered`);
    const enabled = parseValue(key, value);
    if (resource === undefined) versionPrefs.push([`${group}/${version}`, enabled]);
    else if (resource.toLowerCase() !== resource) {
      throw new Error(
        `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
      );
    } else resourceOn.set(`${group}/${version}/${resource}`, enabled);
  }
  for (const [k, on] of versionPrefs) versionOn.set(k, on);
  if (versionOn.get('/v1') === false) throw new Error('api/v1 cannot be disabled: the core group is required');
  return (d) => resourceOn.get(`${gv(d)}/${d.plural}`) ?? versionOn.get(gv(d)) ?? true;
}

/** "" is true; otherwise Go's strconv.ParseBool. */
function parseValue(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}
