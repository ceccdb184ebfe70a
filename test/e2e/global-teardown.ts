import type { EnsuredStack } from '../../tools/stack/stack';

/** Stops the stack the setup started, once, whichever e2e project tears down first. */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { __e2eStack?: EnsuredStack };
  const stack = holder.__e2eStack;
  holder.__e2eStack = undefined;
  await stack?.stop();
}
