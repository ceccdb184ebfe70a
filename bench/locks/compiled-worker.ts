import { constants, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const LOCK_SOURCES = resolve(__dirname, '..', '..', 'libs', 'lock', 'src');
const { COPYFILE_EXCL: EXCL } = constants;

/**
 * The worker bundled to one plain JavaScript file, so ours runs compiled as the app ships it and as
 * the peers' published code runs (under tsx only ours would pay its per-function helpers). The
 * lock's Lua scripts go to `scripts/` beside it, where their loaders look in a build.
 */
export async function compileWorker(outDir: string): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const outfile = join(outDir, 'worker.js');
  await build({
    entryPoints: [join(__dirname, 'worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    packages: 'external', // the peers and ioredis load from node_modules, as in an app
    tsconfig: resolve(__dirname, '..', '..', 'tsconfig.json'),
    logLevel: 'warning',
  });
  mkdirSync(join(outDir, 'scripts'));
  // EXCL: two lock scripts of one name would have the second shadow the first.
  for (const path of luaFiles(LOCK_SOURCES)) copyFileSync(path, join(outDir, 'scripts', basename(path)), EXCL);
  return outfile;
}

export function luaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.lua'))
    .map((entry) => join(entry.parentPath, entry.name));
}
