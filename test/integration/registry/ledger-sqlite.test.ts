import { BYTE_BOUND_ARGS, LEDGER_TOKENS, ledgerServer, runLedgerSuite } from './ledger.js';
import { startTestServer } from '../../support/api-server.js';

const tokens = LEDGER_TOKENS;

runLedgerSuite('sqlite', {
  main: () => ledgerServer(),
  shortRetention: () =>
    startTestServer({ tokens, args: ['--history-retention=4s', '--etcd-compaction-interval=1s', '--watch-cache=false'] }),
  byteBound: () => startTestServer({ tokens, args: BYTE_BOUND_ARGS }),
});

// The same over --workers 2: worker processes write and read the ledger through the remote storage.
runLedgerSuite('sqlite, --workers=2', {
  main: () => startTestServer({ process: true, tokens, args: ['--workers=2', '--authorization-mode=RBAC', '--history-retention=24h'] }),
  shortRetention: () =>
    startTestServer({
      process: true,
      tokens,
      args: ['--workers=2', '--history-retention=4s', '--etcd-compaction-interval=1s', '--watch-cache=false'],
    }),
  byteBound: () => startTestServer({ process: true, tokens, args: ['--workers=2', ...BYTE_BOUND_ARGS] }),
});
