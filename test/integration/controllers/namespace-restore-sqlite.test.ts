import { runNamespaceRestoreSuite } from './namespace-restore.js';
import { startTestServer } from '../../support/api-server.js';

runNamespaceRestoreSuite('sqlite', () => startTestServer({ args: ['--history-retention=24h'] }));
