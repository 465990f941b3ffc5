/** /version: the Kubernetes API level orch implements, and orch's own version. */
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';

const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string };

export const KUBERNETES_MINOR = '28';

export function versionInfo() {
  return {
    major: '1',
    minor: KUBERNETES_MINOR,
    gitVersion: `v1.${KUBERNETES_MINOR}.0+orch-${pkg.version}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${platform()}/${arch() === 'x64' ? 'amd64' : arch()}`,
  };
}
