import { runRestoreSuite } from './ledger-restore.js';
import { startTestServer } from '../../support/api-server.js';

const tokens = ['viewer-token,viewer,viewer-uid,', 'editor-token,editor,editor-uid,'];

runRestoreSuite('sqlite', {
  main: () => startTestServer({ tokens, args: ['--authorization-mode=RBAC', '--history-retention=24h'] }),
});
