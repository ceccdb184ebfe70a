import { benchCommand } from '../bench/bench-command';
import { parseBenchArgs } from '../bench/options';
import { runCommand } from './stack/run-command';

// npm run demo [-- bench options]: the main job. Stack up (or use the running one), every strategy
// under both loads with fewer grabs per round than `npm run bench`, the report written, the
// lessons last, and the stack stopped if this started it.
async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2), 'demo');
  console.log('oversell-lab demo: every strategy under the same load, speed and correctness side by side');
  const { asExpected } = await benchCommand(options);
  if (!asExpected) process.exitCode = 1;
}

runCommand(main, { stack: true });
