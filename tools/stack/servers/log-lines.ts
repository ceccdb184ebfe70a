import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Forwards a child's stdout and stderr, line by line, prefixed with its name. */
export function forwardOutput(name: string, child: ChildProcess, write: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => write(`[${name}] ${line}`));
  }
}
