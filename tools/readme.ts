import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { baselineJson } from './docs/baseline-json';
import { GENERATED, renderGenerated, type Baselines } from './docs/generated-docs';

// npm run readme -- [--bench FILE] [--locks FILE] [--chaos FILE] [--lab FILE] [--soak FILE] [--failover FILE,FILE…]
// (--failover takes the chaos runs under Sentinel or a cluster, each with its own WAIT setting, as one list)
// Writes the generated sections of the README and of docs/bench.md and docs/reliability.md from the
// saved runs in bench/baselines/ (committed, so every figure quoted can be traced to its JSON). A
// file given is first copied there, one plain object to a line.
export const ROOT = resolve(__dirname, '..');
export const BASELINES = join(ROOT, 'bench', 'baselines');
const KINDS = ['bench', 'locks', 'chaos', 'lab', 'soak', 'failover'] as const;
const USAGE =
  'usage: npm run readme -- [--bench FILE] [--locks FILE] [--chaos FILE] [--lab FILE] [--soak FILE] [--failover FILE,FILE…]';

function given(argv: string[]): Partial<Record<(typeof KINDS)[number], string>> {
  const out: Partial<Record<(typeof KINDS)[number], string>> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const kind = KINDS.find((k) => `--${k}` === argv[i]);
    if (!kind || !argv[i + 1]) throw new Error(USAGE);
    out[kind] = argv[i + 1];
  }
  return out;
}

/** The committed runs the docs are written from. */
export function readBaselines(dir = BASELINES): Baselines {
  const read = (kind: string) => {
    const file = join(dir, `${kind}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
  };
  return Object.fromEntries(KINDS.map((kind) => [kind, read(kind)]));
}

function main(): void {
  const files = given(process.argv.slice(2));
  mkdirSync(BASELINES, { recursive: true });
  for (const [kind, file] of Object.entries(files)) {
    const target = join(BASELINES, `${kind}.json`);
    const runs = file.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
    writeFileSync(target, baselineJson(kind, kind === 'failover' ? { runs } : runs[0]));
  }
  const baselines = readBaselines();
  for (const doc of Object.keys(GENERATED)) {
    const path = join(ROOT, doc);
    writeFileSync(path, renderGenerated(doc, readFileSync(path, 'utf8'), baselines));
    console.log(`${doc}: written from ${BASELINES}`);
  }
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  }
}
