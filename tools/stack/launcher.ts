import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, stackDir } from './config';
import { isAlive, isSupervisor, signalGroup, waitGone } from './processes';
import { logFile, pidFile, readStackFile, removeStackFile, type StackInfo } from './stack-file';
import { httpStatus } from './servers/http-probe';

const CLI = join(REPO_ROOT, 'tools', 'stack', 'cli.ts');

/** stack.json of the stack in `dir` when its supervisor and nginx are alive, else undefined. */
export async function liveStack(dir: string): Promise<StackInfo | undefined> {
  const info = await readStackFile(dir);
  if (!info || !isSupervisor(info.supervisorPid)) return undefined;
  return (await httpStatus(`${info.nginxUrl}/nginx-health`)) === 200 ? info : undefined;
}

/** Every server process of the stack (the supervisor aside); a server not started is undefined. */
export const serverPids = (info: StackInfo) => [
  ...info.replicas.map((r) => r.pid),
  info.pids.postgres,
  ...Object.values(info.pids.redis),
  ...info.pids.redlock,
  info.pids.nginx,
  info.pids.lab,
];

/**
 * Throws when `dir` cannot take a new stack: its supervisor still runs, or died abruptly and
 * left servers behind (they hold the ports; `down` stops them).
 */
export async function assertNoStackIn(dir: string): Promise<void> {
  const pid = supervisorPid(dir);
  if (pid && pid !== process.pid)
    throw new Error(`a supervisor already runs for ${dir} (pid ${pid}); run stack:down first`);
  const info = await readStackFile(dir);
  if (!info || isSupervisor(info.supervisorPid)) return;
  const left = serverPids(info).filter(isAlive);
  if (left.length > 0) {
    throw new Error(
      `servers of a stack whose supervisor died still run in ${dir} (pids ${left.join(', ')}): run stack:down first`,
    );
  }
}

export function supervisorPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile(dir), 'utf8').trim());
    return isSupervisor(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The log's last lines, led by the reason the supervisor gave (it is followed by the shutdown). */
function logTail(dir: string, lines = 25): string {
  try {
    const all = readFileSync(logFile(dir), 'utf8').trimEnd().split('\n');
    const at = all.findIndex((line) => line.startsWith('stack failed to start'));
    // The reason may span lines (a replica's last words): up to the next timestamped line.
    const end = at < 0 ? at : all.findIndex((line, i) => i > at && /^\d\d:\d\d:\d\d\.\d{3} /.test(line));
    const reason = at < 0 ? [] : all.slice(at, end < 0 ? undefined : end);
    return [...reason, '…', ...all.slice(-lines)].join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts `cli.ts run` as a detached supervisor (its own process group, output to STACK_DIR/stack.log)
 * and resolves once the stack is healthy. Rejects with the log's tail when it fails.
 */
export async function startDetached(env: NodeJS.ProcessEnv = process.env, timeoutMs = 180000): Promise<StackInfo> {
  const dir = stackDir(env);
  mkdirSync(dir, { recursive: true });
  await assertNoStackIn(dir);
  const log = openSync(logFile(dir), 'w');
  const tsx = require.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, CLI, 'run'], {
    cwd: REPO_ROOT,
    env: { ...env, STACK_DIR: dir },
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  const pid = child.pid;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await liveStack(dir);
    if (info && info.supervisorPid === pid) return info;
    if (!isAlive(pid)) throw new Error(`the stack failed to start; last lines of ${logFile(dir)}:\n${logTail(dir)}`);
    if (Date.now() > deadline) {
      signalGroup(pid, 'SIGTERM');
      await waitGone([pid], 20000);
      throw new Error(
        `the stack was not healthy after ${timeoutMs} ms; last lines of ${logFile(dir)}:\n${logTail(dir)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Stops the supervisor of `dir` and waits until it and every server it ran are gone.
 * Returns false when no stack was running there.
 */
export async function stopDetached(dir: string): Promise<boolean> {
  const info = await readStackFile(dir);
  const pid = supervisorPid(dir) ?? (isSupervisor(info?.supervisorPid) ? info?.supervisorPid : undefined);
  const children = info ? serverPids(info) : [];
  if (!pid && !children.some(isAlive)) {
    await removeStackFile(dir);
    return false;
  }
  if (pid) {
    process.kill(pid, 'SIGTERM');
    if (!(await waitGone([pid], 30000))) signalGroup(pid, 'SIGKILL');
  }
  // A supervisor that died abruptly leaves its servers behind: each leads its own process group.
  if (!pid && info) {
    for (const child of serverPids(info)) signalGroup(child, child === info.pids.postgres ? 'SIGINT' : 'SIGTERM');
  }
  if (!(await waitGone(children, 10000))) {
    for (const child of children.filter(isAlive)) signalGroup(child, 'SIGKILL');
    await waitGone(children, 5000);
  }
  await removeStackFile(dir);
  await rm(pidFile(dir), { force: true });
  return true;
}
