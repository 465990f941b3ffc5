import { after, before } from 'node:test';
import { runRestoreSuite } from './ledger-restore.js';
import { startTestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';

const tokens = ['viewer-token,viewer,viewer-uid,', 'editor-token,editor,editor-uid,'];
let etcd: EtcdProcess;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.stop();
});

runRestoreSuite('etcd', {
  main: () => startTestServer({ etcd: etcd.endpoint, tokens, args: ['--authorization-mode=RBAC', '--history-retention=24h'] }),
});
