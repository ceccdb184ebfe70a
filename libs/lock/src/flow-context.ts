import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * A logical flow (one request): the Node analogue of a Java thread. Reentrant locks are owned by
 * replica id + flow id, so the same request may re-acquire a lock it holds, another may not.
 */
interface Flow {
  readonly id: string;
}

const flows = new AsyncLocalStorage<Flow>();

/** Runs `fn` as a new logical flow, whatever flow the caller was in. */
export function runInFlow<T>(fn: () => T): T {
  return flows.run({ id: randomUUID() }, fn);
}

/** Runs `fn` in the caller's flow, or in a new one when there is none. */
export function inSomeFlow<T>(fn: () => T): T {
  return flows.getStore() ? fn() : runInFlow(fn);
}

export function currentFlowId(): string | undefined {
  return flows.getStore()?.id;
}
