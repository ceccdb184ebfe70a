import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { compileWorker, luaFiles } from './compiled-worker';

jest.setTimeout(30_000);

// The micro-bench runs every contender from this one file: ours must not carry a helper the
// peers' published JavaScript does not (tsx's keep-names adds a call at every function made).
it("compiles the worker to one plain JavaScript file, with every one of the lock's scripts beside it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  try {
    const path = await compileWorker(join(dir, 'out'));
    const code = readFileSync(path, 'utf8');
    expect(code).toContain('counterSection'); // the bench's own section is in it
    expect(code).not.toMatch(/__name\(/);
    expect(code).not.toMatch(/require\("@app\//); // the path aliases are bundled, not left to resolve
    const lockScripts = luaFiles(resolve(__dirname, '..', '..', 'libs', 'lock', 'src')).map((p) => basename(p));
    expect(lockScripts).toContain('redlock-release.lua'); // found in nested folders too
    expect(readdirSync(join(dir, 'out', 'scripts')).sort()).toEqual(lockScripts.sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
