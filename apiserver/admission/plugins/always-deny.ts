/** AlwaysDeny (deprecated in Kubernetes, for tests): refuses every write with 403, in both phases. */
import type { AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { admissionForbidden } from '../errors.js';

const WHY = 'admission control is denying all modifications';

export const newAlwaysDeny: PluginFactory = (): AdmissionPlugin => ({
  name: 'AlwaysDeny',
  handles: () => true,
  async admit(a) {
    throw admissionForbidden(a, WHY);
  },
  async validate(a) {
    throw admissionForbidden(a, WHY);
  },
});
