import { after, before } from 'node:test';
import { runNamespaceRestoreSuite } from './namespace-restore.js';
import { startTestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';

let etcd: EtcdProcess;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.stop();
});

// The API server in its own process, as in a cluster: the controllers' event storm is not its event loop's.
runNamespaceRestoreSuite('etcd', () => startTestServer({ process: true, etcd: etcd.endpoint, args: ['--history-retention=24h'] }));
