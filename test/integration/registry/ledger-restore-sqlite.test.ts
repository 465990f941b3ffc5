import { ledgerServer } from './ledger.js';
import { runRestoreSuite } from './ledger-restore.js';

runRestoreSuite('sqlite', { main: () => ledgerServer() });
