import { stopDetached } from '../../tools/stack/launcher';
import { ensureStack, readStack } from '../../tools/stack/stack';
import { E2E_STACK_ENV, e2eStackDir, useRunningStack } from './support/stack';

// One stack for the whole e2e run (specs run in band and share it); the teardown stops it.
export default async function globalSetup(): Promise<void> {
  if (useRunningStack()) {
    if (!(await readStack(e2eStackDir())))
      throw new Error(`E2E_USE_RUNNING_STACK=1 but no stack runs in ${e2eStackDir()}`);
    return;
  }
  // A test stack left by an interrupted run would serve the previous build: start afresh.
  if (await stopDetached(e2eStackDir())) console.warn(`\ne2e: stopped a test stack left running in ${e2eStackDir()}`);
  const stack = await ensureStack({ env: E2E_STACK_ENV });
  (globalThis as { __e2eStack?: typeof stack }).__e2eStack = stack;
}
