import { existsSync } from 'node:fs';
import { startChild } from './servers/child';
import { forwardOutput } from './servers/log-lines';

/** Runs the schema migrations once, in a child process of their own, against `databaseUrl`. */
export async function runMigrations(entry: string, databaseUrl: string, log: (line: string) => void): Promise<void> {
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`npm run build\` first`);
  const child = startChild('migrate', process.execPath, [entry], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  forwardOutput('migrate', child.child, log);
  const how = await child.exited;
  if (how !== 0) throw new Error(`migrations failed (${how}); see the [migrate] lines above`);
}
