import type { EnsuredStack } from '../../tools/stack/stack';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __e2eStack?: EnsuredStack }).__e2eStack?.stop();
}
