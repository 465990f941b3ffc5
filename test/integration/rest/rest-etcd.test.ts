import { after, before } from 'node:test';
import { runRestConformance } from './conformance.js';
import { startTestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';

let etcd: EtcdProcess;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.stop();
});

runRestConformance('etcd', () => startTestServer({ etcd: etcd.endpoint }));
