import { ApiClient } from '@app/contract';
import { benchCommand } from './bench-command';
import { parseBenchArgs } from './options';
import { renderT0, runT0, T0_SETTINGS } from './t0';
import { ensureStack } from '../tools/stack/stack';
import { runCommand } from '../tools/stack/run-command';

// npm run bench -- [--strategies a,b] [--stock N] [--requests N] [--connections N] [--work-ms 0,5]
//                  [--segments N] [--warmup N] [--sell-out-runs N] [--quick] [--out DIR] [--keep-stack]
// npm run bench -- --t0   the T0 round: a crowd on a clock, without then with a waiting room
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--t0')) return t0();
  const { asExpected } = await benchCommand(parseBenchArgs(argv));
  if (!asExpected) process.exitCode = 1;
}

async function t0(): Promise<void> {
  const stack = await ensureStack();
  try {
    const api = new ApiClient({ baseUrl: stack.info.nginxUrl, adminToken: stack.info.adminToken, timeoutMs: 60_000 });
    const runs = [await runT0(api, T0_SETTINGS, false), await runT0(api, T0_SETTINGS, true)];
    for (const line of renderT0(T0_SETTINGS, runs)) console.log(line);
  } finally {
    await stack.stop();
  }
}

runCommand(main);
