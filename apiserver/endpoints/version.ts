/** /version: the Kubernetes API level orch implements, and orch's own version. */
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';

import { KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../api/kubernetes-version.js';

const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string };

export function versionInfo() {
  return {
    major: String(KUBERNETES_MAJOR),
    minor: String(KUBERNETES_MINOR),
    gitVersion: `v${KUBERNETES_MAJOR}.${KUBERNETES_MINOR}.0+orch-${pkg.version}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${platform()}/${arch() === 'x64' ? 'amd64' : arch()}`,
  };
}
