import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import { startEtcd } from '../../support/etcd.js';
import { runCacherConformance } from './cacher-conformance.js';

runCacherConformance('etcd', async () => {
  const etcd = await startEtcd();
  const storage = newEtcdStorage({ endpoints: [etcd.endpoint] });
  return {
    storage,
    async close() {
      await storage.close();
      await etcd.stop();
    },
  };
});
