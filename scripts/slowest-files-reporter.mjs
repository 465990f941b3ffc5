// A node:test reporter that prints, once every file has run, the files that took longest (wall time
// of each file's process, slowest first) and the run's total, so one can see where a run's time goes.
// How many: ORCH_TEST_SLOWEST (default 15; 0 lists every file). scripts/run-tests.mjs adds it beside spec.
const count = Number(process.env.ORCH_TEST_SLOWEST ?? 15);
const startedAt = Date.now();

export default async function* slowestFiles(source) {
  const durations = new Map();
  for await (const event of source) {
    // Node 20 reports a file's process as a test named by its path; its duration is the file's wall time.
    if (event.type === 'test:complete' && event.data.nesting === 0 && event.data.name === event.data.file) {
      durations.set(event.data.file, event.data.details.duration_ms);
    }
  }
  const files = [...durations].sort((a, b) => b[1] - a[1]);
  const shown = count > 0 ? files.slice(0, count) : files;
  const cwd = `${process.cwd()}/`;
  const sum = files.reduce((s, [, ms]) => s + ms, 0);
  yield `\nslowest test files (${shown.length} of ${files.length}; wall time ${seconds(Date.now() - startedAt)}, sum of files ${seconds(sum)}):\n`;
  for (const [file, ms] of shown) yield `${seconds(ms).padStart(9)}  ${file.startsWith(cwd) ? file.slice(cwd.length) : file}\n`;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}
