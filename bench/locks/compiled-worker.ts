import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');
const LOCK_SOURCES = join(ROOT, 'libs', 'lock', 'src');

/**
 * Compiles the micro-bench's worker to one plain JavaScript file, so every contender runs as
 * shipped: the app runs compiled code (`nest build`) and the peers run their published JavaScript.
 * Run through tsx instead, only our lock's code would pay tsx's keep-names helper, a call at every
 * function it creates. The lock's Lua scripts, and the hand-off ring's, go to `scripts/` beside
 * the bundle, where their loaders look in a build. Returns the bundle's path.
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
    format: 'cjs',
    packages: 'external', // the peers and ioredis load from node_modules, as they would in an app
    tsconfig: join(ROOT, 'tsconfig.json'),
    sourcemap: true,
    logLevel: 'warning',
  });
  const scripts = join(outDir, 'scripts');
  mkdirSync(scripts, { recursive: true });
  const copied = new Map<string, string>();
  for (const path of [...luaFiles(LOCK_SOURCES), ...luaFiles(join(__dirname, 'scripts'))]) {
    const name = basename(path);
    const first = copied.get(name);
    if (first) throw new Error(`two scripts named ${name}: ${first} and ${path}`);
    copied.set(name, path);
    copyFileSync(path, join(scripts, name));
  }
  return outfile;
}

function luaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return luaFiles(path);
    return entry.name.endsWith('.lua') ? [path] : [];
  });
}
