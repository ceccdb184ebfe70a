import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderReadmeSections, type Baselines } from './docs/readme-sections';

// npm run readme -- [--bench FILE] [--locks FILE] [--chaos FILE] [--lab FILE] [--soak FILE] [--failover FILE,FILE…]
// (--failover takes the chaos runs under Sentinel or a cluster, each with its own WAIT setting, as one list)
// Writes the README's generated sections from the saved runs in bench/baselines/ (committed, so
// every figure the README quotes can be traced to its JSON). A file given is first copied there.
const ROOT = resolve(__dirname, '..');
export const BASELINES = join(ROOT, 'bench', 'baselines');
const README = join(ROOT, 'README.md');
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

/** The committed runs the README is written from. */
export function readBaselines(dir = BASELINES): Baselines {
  const read = (kind: string) => {
    const file = join(dir, `${kind}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
  };
  return {
    bench: read('bench'),
    locks: read('locks'),
    chaos: read('chaos'),
    lab: read('lab'),
    soak: read('soak'),
    failover: read('failover'),
  } as Baselines;
}

function main(): void {
  const files = given(process.argv.slice(2));
  mkdirSync(BASELINES, { recursive: true });
  for (const [kind, file] of Object.entries(files)) {
    const target = join(BASELINES, `${kind}.json`);
    if (kind !== 'failover') copyFileSync(file, target);
    else {
      const runs = file.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
      writeFileSync(target, `${JSON.stringify({ runs }, null, 2)}\n`);
    }
  }
  writeFileSync(README, renderReadmeSections(readFileSync(README, 'utf8'), readBaselines()));
  console.log(`${README}: written from ${BASELINES}`);
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  }
}
