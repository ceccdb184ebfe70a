import { benchCommand } from './bench-command';
import { parseBenchArgs } from './options';
import { runCommand } from '../tools/stack/run-command';

// npm run bench -- [--strategies a,b] [--stock N] [--requests N] [--connections N] [--work-ms 0,5]
//                  [--segments N] [--warmup N] [--sell-out-runs N] [--quick] [--out DIR] [--keep-stack]
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const keepStack = argv.includes('--keep-stack');
  const options = parseBenchArgs(argv.filter((a) => a !== '--keep-stack'));
  const { asExpected } = await benchCommand(options, console.log, keepStack);
  if (!asExpected) process.exitCode = 1;
}

runCommand(main);
