import { BYTE_BOUND_ARGS, LEDGER_TOKENS, ledgerServer, runLedgerSuite } from './ledger.js';
import { startTestServer } from '../../support/api-server.js';
import { useEtcd } from '../../support/etcd.js';

const etcd = useEtcd();

runLedgerSuite('etcd', {
  main: () => ledgerServer(etcd()),
  shortRetention: () =>
    startTestServer({
      etcd: etcd(),
      tokens: LEDGER_TOKENS,
      args: ['--history-retention=4s', '--etcd-compaction-interval=1s', '--watch-cache=false'],
    }),
  byteBound: () => startTestServer({ etcd: etcd(), tokens: LEDGER_TOKENS, args: BYTE_BOUND_ARGS }),
});
