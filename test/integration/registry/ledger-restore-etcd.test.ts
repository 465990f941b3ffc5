import { ledgerServer } from './ledger.js';
import { runRestoreSuite } from './ledger-restore.js';
import { useEtcd } from '../../support/etcd.js';

const etcd = useEtcd();

runRestoreSuite('etcd', { main: () => ledgerServer(etcd()) });
