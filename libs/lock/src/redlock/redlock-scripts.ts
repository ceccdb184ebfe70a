import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SOURCE_DIR = join('libs', 'lock', 'src', 'redlock', 'scripts');

/**
 * The text of `scripts/<name>.lua`. Next to this file when run from source (tsx, Jest); a build
 * that did not copy the asset falls back to the source tree, found by walking up to the repo root.
 */
export function readRedlockScript(name: string): string {
  const file = `${name}.lua`;
  const beside = join(__dirname, 'scripts', file);
  if (existsSync(beside)) return readFileSync(beside, 'utf8');
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, SOURCE_DIR, file);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    if (dirname(dir) === dir) throw new Error(`Lua script ${file} not found from ${__dirname}`);
  }
}
