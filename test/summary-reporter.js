// Prints the slowest test files (what a tier costs), then one plain closing line
// ("tests: N passed, N failed") that CI reads for every runner.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((r) => ({ name: r.testFilePath.split('/').pop(), s: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .filter((f) => f.s >= 5) // what Jest itself marks slow
      .sort((a, b) => b.s - a.s)
      .slice(0, 5);
    if (files.length > 0)
      process.stdout.write(`\nslowest: ${files.map((f) => `${f.name} ${f.s.toFixed(0)} s`).join(', ')}`);
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    process.stdout.write(`\n${skipped ? `${line}, ${skipped} skipped` : line}\n`);
  }
}
module.exports = SummaryReporter;
