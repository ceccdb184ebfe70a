/** A stop asked for while the stack was still starting: the start gives up, without blaming a server. */
export class Stopped extends Error {
  override readonly name = 'StackStopped';
  readonly code = 'STACK.STOPPED';
  constructor() {
    super('the stack was stopped while starting');
  }
}
