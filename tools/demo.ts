import { benchCommand } from '../bench/bench-command';
import { parseBenchArgs } from '../bench/options';

// npm run demo [-- bench options]: the main job. Stack up (or use the running one), every strategy
// compared under load, the report's paths printed, and the stack stopped if this started it.
async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  console.log('oversell-lab demo: every strategy under the same load, speed and correctness side by side');
  const { report, files, asExpected } = await benchCommand(options);
  console.log('');
  for (const load of report.loads) {
    const wrong = load.results.filter((r) => !r.verdict.correct).map((r) => `${r.strategy} (${r.verdict.label})`);
    console.log(
      `workMs ${load.workMs}: ${load.results.length} strategies compared; wrong under load: ${wrong.length ? wrong.join(', ') : 'no strategy'}`,
    );
  }
  console.log(`open ${files.html}`);
  if (!asExpected) {
    console.log('some verdict differs from the one scenarios.ts expects (see above): exit 1');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
