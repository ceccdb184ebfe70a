import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { forwardOutput } from './log-lines';

/** A server process we started and must stop. */
export interface RunningChild {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited, with its exit code or signal. */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Sends `signal`, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function startChild(name: string, command: string, args: string[], options: SpawnOptions = {}): RunningChild {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? code ?? 0));
    child.once('error', () => resolve(-1));
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { name, child, exited, stop };
}

/** Polls `probe` until it resolves true, or throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 15000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Sends a server's output to `log` line by line, or drains it so a full pipe never stalls the server. */
export function routeOutput(server: RunningChild, log?: (line: string) => void): void {
  if (log) forwardOutput(server.name, server.child, log);
  else {
    server.child.stdout?.resume();
    server.child.stderr?.resume();
  }
}

/**
 * Waits until `probe` says the server is up, failing at once if it exits first (`hint` says what
 * to check); a server that never got ready is killed, so nothing is left running.
 */
export async function readyOrKilled(
  server: RunningChild,
  what: string,
  probe: () => Promise<boolean>,
  hint: string,
): Promise<void> {
  try {
    await Promise.race([
      waitFor(what, probe),
      server.exited.then((how) => {
        throw new Error(`${what} exited early (${how}); ${hint}`);
      }),
    ]);
  } catch (error) {
    await server.stop('SIGKILL', 1000);
    throw error;
  }
}
