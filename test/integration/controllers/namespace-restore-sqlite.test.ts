import { runNamespaceRestoreSuite } from './namespace-restore.js';
import { startTestServer } from '../../support/api-server.js';

// The 5,000 objects run on etcd (namespace-restore-etcd.test.ts); here the same proof at a fifth of
// the size keeps the suite's time down on a shared machine.
runNamespaceRestoreSuite('sqlite', () => startTestServer({ process: true, args: ['--history-retention=24h'] }), {
  deployments: 30,
  replicas: 2,
  each: 141,
});
