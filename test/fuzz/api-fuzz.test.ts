/**
 * The fuzz suite (api-fuzz.ts) against an orch-apiserver process on the embedded store, then, for a
 * third of the budget, on etcd. `npm run test:fuzz`; ORCH_FUZZ_SECONDS (the whole budget, default
 * 150), ORCH_FUZZ_SEED (replays a run), ORCH_FUZZ_LANES, ORCH_FUZZ_KNOWN_BUGS=0 (leaves out the
 * inputs of the bugs being fixed), ORCH_FUZZ_CATEGORIES (only these, comma-separated). Both passes run one after the other: two servers fuzzed at once
 * would share two cores and time each other's requests.
 */
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { useEtcd } from '../support/etcd.js';
import { assertNoFailures, fuzzSettings, runFuzz } from './api-fuzz.js';

const settings = fuzzSettings();
process.stderr.write(
  `fuzz: ORCH_FUZZ_SEED=${settings.seed} ORCH_FUZZ_SECONDS=${settings.seconds} ORCH_FUZZ_LANES=${settings.lanes}` +
    `${settings.knownBugs ? '' : ' ORCH_FUZZ_KNOWN_BUGS=0'}${settings.categories ? ` ORCH_FUZZ_CATEGORIES=${settings.categories.join()}` : ''}\n`,
);
/** The etcd pass gets a third of the budget, when the budget leaves it at least 20 s. */
const etcdSeconds = settings.seconds >= 60 ? Math.round(settings.seconds / 3) : 0;
const embeddedSeconds = settings.seconds - etcdSeconds;
const timeout = (seconds: number) => seconds * 1000 + 120_000;
/**
 * One process, one worker (--workers=1): a crash is the server's exit, not a worker the supervisor
 * quietly replaces, and the lanes do not compete with a second worker for the two cores.
 */
const ARGS = ['--workers=1'];
/**
 * A heap of 1 GiB, well above the RSS bound the suite holds the server to (twice its size after the
 * setup plus 256 MiB), so it hides no finding: an input that blows memory up ends in a crash at 1 GiB
 * instead of taking the machine's memory (a JSON patch of doubling copies reached 5 GiB).
 */
const NODE_ARGS = ['--max-old-space-size=1024'];

describe('fuzzing the API on the embedded store', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ process: true, args: ARGS, nodeArgs: NODE_ARGS });
  });
  after(() => s?.stop());

  it(`answers every input without a 5xx, a crash or a stall (${embeddedSeconds} s)`, { timeout: timeout(embeddedSeconds) }, async (t) => {
    const report = await runFuzz(t, s, settings, embeddedSeconds, 'embedded');
    assertNoFailures(report, s, settings);
  });
});

describe('fuzzing the API on etcd', { skip: etcdSeconds === 0 && 'ORCH_FUZZ_SECONDS below 60 leaves no time for it' }, () => {
  const etcd = useEtcd();
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ process: true, etcd: etcd(), args: ARGS, nodeArgs: NODE_ARGS });
  });
  after(() => s?.stop());

  it(`answers every input without a 5xx, a crash or a stall (${etcdSeconds} s)`, { timeout: timeout(etcdSeconds) }, async (t) => {
    const report = await runFuzz(t, s, settings, etcdSeconds, 'etcd');
    assertNoFailures(report, s, settings);
  });
});
