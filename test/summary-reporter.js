// Prints one plain closing line ("tests: N passed, N failed") that CI reads for every runner.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    process.stdout.write(`\n${skipped ? `${line}, ${skipped} skipped` : line}\n`);
  }
}
module.exports = SummaryReporter;
