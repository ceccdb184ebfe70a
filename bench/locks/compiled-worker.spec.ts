import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LUA_COMMANDS } from '../../libs/lock/src/scripts/lua-commands';
import { compileWorker } from './compiled-worker';

jest.setTimeout(30_000);

// The micro-bench runs every contender from this one file: ours must not carry a helper the
// peers' published JavaScript does not (tsx's keep-names adds a call at every function made).
it("compiles the worker to one plain JavaScript file, with the lock scripts and the hand-off ring's beside it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  try {
    const path = await compileWorker(join(dir, 'out'));
    const code = readFileSync(path, 'utf8');
    expect(code).toContain('counterSection'); // the bench's own section is in it
    expect(code).not.toMatch(/__name\(/);
    expect(code).not.toMatch(/require\("@app\//); // the path aliases are bundled, not left to resolve
    const scripts = readdirSync(join(dir, 'out', 'scripts'));
    for (const [file] of Object.values(LUA_COMMANDS)) expect(scripts).toContain(file);
    expect(scripts).toContain('redlock-release.lua');
    expect(scripts).toContain('handoff-pass.lua'); // the hand-off ring's
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
