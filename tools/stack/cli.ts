import { writeFileSync, mkdirSync } from 'node:fs';
import { checkBinaries } from './binaries';
import { resolveConfig, stackDir } from './config';
import { assertNoStackIn, liveStack, startDetached, stopDetached } from './launcher';
import { runMigrations } from './migrate';
import { pidFile, type StackInfo } from './stack-file';
import { Supervisor } from './supervisor';

const USAGE = `usage: tsx tools/stack/cli.ts <run|up|down|migrate> [--redis single|sentinel|cluster]
  run      the stack in the foreground; Ctrl-C (or SIGTERM) stops everything
  up       the stack in the background (log in STACK_DIR/stack.log); returns once it is healthy
  down     stops the background stack and waits until nothing of it runs
  migrate  runs the schema migrations against DATABASE_URL (default: the running stack's)
  --redis  the Redis the replicas lock with (as REDIS_MODE; default single)`;

function summary(info: StackInfo): string {
  return [
    `nginx     ${info.nginxUrl}`,
    ...info.replicas.map((r) => `${r.id.padEnd(9)} ${r.url} (pid ${r.pid})`),
    `postgres  ${info.databaseUrl}`,
    `redis     ${info.redisMode} ${info.redisClusterUrls?.join(' ') ?? info.redisSentinelUrls?.join(' ') ?? info.redisUrl}`,
    `control   ${info.controlUrl}`,
    `lab page  ${info.labUrl ?? '(not built: npm run build)'}`,
    `chaos     ${info.chaos}`,
    `stack.json ${info.dir}/stack.json`,
  ].join('\n');
}

async function run(): Promise<void> {
  const config = resolveConfig();
  checkBinaries();
  await assertNoStackIn(config.dir);
  mkdirSync(config.dir, { recursive: true });
  writeFileSync(pidFile(config.dir), `${process.pid}\n`);
  const stamp = () => new Date().toISOString().slice(11, 23);
  const supervisor = new Supervisor(config, (line) => console.log(`${stamp()} ${line}`));
  // Handlers first: a signal during startup must stop whatever has started.
  let exitCode = 0;
  const shutdown = (code: number) => {
    exitCode ||= code;
    void supervisor.stop().finally(() => process.exit(exitCode));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(0));
  try {
    await supervisor.start();
    console.log(summary(supervisor.info()));
  } catch (error) {
    if ((error as { code?: string }).code === 'STACK.STOPPED') return;
    console.error(`stack failed to start: ${(error as Error).message}`);
    shutdown(1);
  }
}

async function up(): Promise<void> {
  const dir = stackDir();
  const running = await liveStack(dir);
  if (running) {
    console.log(`the stack is already up (supervisor pid ${running.supervisorPid})\n${summary(running)}`);
    return;
  }
  checkBinaries();
  const info = await startDetached(process.env);
  console.log(`the stack is up (supervisor pid ${info.supervisorPid}, log ${dir}/stack.log)\n${summary(info)}`);
}

async function down(): Promise<void> {
  const dir = stackDir();
  console.log((await stopDetached(dir)) ? `the stack in ${dir} is stopped` : `no stack runs in ${dir}`);
}

async function migrate(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? (await liveStack(stackDir()))?.databaseUrl;
  if (!databaseUrl) throw new Error('no DATABASE_URL and no running stack');
  await runMigrations(resolveConfig().migrateEntry, databaseUrl, console.log);
  console.log(`migrated ${databaseUrl}`);
}

const commands: Record<string, () => Promise<void>> = { run, up, down, migrate };
const command = commands[process.argv[2] ?? ''];
const [flag, mode, ...rest] = process.argv.slice(3);
if (flag === '--redis' && mode && rest.length === 0) process.env.REDIS_MODE = mode;
else if (flag !== undefined) {
  console.error(USAGE);
  process.exit(2);
}
if (!command) {
  console.error(USAGE);
  process.exit(2);
}
command().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
