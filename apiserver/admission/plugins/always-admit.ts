/** AlwaysAdmit (deprecated in Kubernetes, kept for parity): admits every request unchanged. */
import type { AdmissionPlugin, PluginFactory } from '../interfaces.js';

export const newAlwaysAdmit: PluginFactory = (): AdmissionPlugin => ({
  name: 'AlwaysAdmit',
  handles: () => true,
  async admit() {},
  async validate() {},
});
