import { stopDetached } from '../../tools/stack/launcher';
import { ensureStack, readStack, type EnsuredStack } from '../../tools/stack/stack';
import { E2E_STACK_ENV, e2eStackDir, useRunningStack } from './support/stack';

// One stack for the whole e2e run (specs run in band and share it); the teardown stops it. Jest runs
// this once per e2e project: when `e2e` and `e2e-slow` run together, the second finds the stack up.
export default async function globalSetup(): Promise<void> {
  const holder = globalThis as { __e2eReady?: boolean; __e2eStack?: EnsuredStack };
  if (holder.__e2eReady) return;
  if (useRunningStack()) {
    if (!(await readStack(e2eStackDir())))
      throw new Error(`E2E_USE_RUNNING_STACK=1 but no stack runs in ${e2eStackDir()}`);
  } else {
    // A test stack left by an interrupted run would serve the previous build: start afresh.
    if (await stopDetached(e2eStackDir())) console.warn(`\ne2e: stopped a test stack left running in ${e2eStackDir()}`);
    holder.__e2eStack = await ensureStack({ env: E2E_STACK_ENV });
  }
  holder.__e2eReady = true;
}
