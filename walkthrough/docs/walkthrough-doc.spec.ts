import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { allSteps } from '../steps';
import { fillIncludes, includedPaths } from './includes';

// docs/walkthrough.md must stay true: its included code is the code that runs, and it tells
// the story of every step. `npx tsx walkthrough/render-docs.ts` repairs the first.
const ROOT = resolve(__dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'walkthrough.md'), 'utf8');

function luaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : luaFiles(path);
    return entry.name.endsWith('.lua') ? [relative(ROOT, path)] : [];
  });
}

describe('docs/walkthrough.md', () => {
  it('includes every file exactly as it is now (else run: npx tsx walkthrough/render-docs.ts)', () => {
    expect(fillIncludes(doc, (path) => readFileSync(join(ROOT, path), 'utf8'))).toBe(doc);
  });

  it('shows every Lua script the libraries run', () => {
    const lua = luaFiles(join(ROOT, 'libs'));
    expect(lua.length).toBeGreaterThan(0);
    expect(lua.filter((path) => !includedPaths(doc).includes(path))).toEqual([]);
  });

  it("tells the story of every step, in the walkthrough's order", () => {
    const story = doc.slice(0, doc.indexOf('<!-- section: run -->'));
    const headings = [...story.matchAll(/^### \d+\. `([a-z0-9-]+)`/gm)].map((m) => m[1]);
    expect(headings).toEqual(allSteps.map((s) => s.name));
  });

  it("has a place for the real run's output", () => {
    expect(doc).toMatch(/<!-- section: run -->[\s\S]*<!-- \/section: run -->/);
  });
});
