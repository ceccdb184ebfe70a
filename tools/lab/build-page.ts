import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

// The lab page's static files: type-checked (esbuild does not), bundled, copied beside the lab server's build.
const ROOT = resolve(__dirname, '..', '..');
const PAGE = join(ROOT, 'apps', 'lab', 'page');
const OUT = join(ROOT, 'dist', 'apps', 'lab', 'page');

async function main(): Promise<void> {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(PAGE, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(PAGE, 'main.ts')],
    outfile: join(OUT, 'app.js'),
    bundle: true,
    minify: true,
    keepNames: true, // error classes name themselves after their class
    sourcemap: false,
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    tsconfig: join(PAGE, 'tsconfig.json'),
    logLevel: 'warning',
  });
  copyFileSync(join(PAGE, 'index.html'), join(OUT, 'index.html'));
  // One stylesheet, in this order: steps.css overrides style.css on narrow screens.
  const css = ['style.css', 'scheduler.css', 'steps.css', 'room.css'].map((file) =>
    readFileSync(join(PAGE, file), 'utf8'),
  );
  writeFileSync(join(OUT, 'app.css'), css.join('\n'));
  const sizes = ['index.html', 'app.js', 'app.css'].map(
    (f) => `${f} ${(statSync(join(OUT, f)).size / 1024).toFixed(1)} KiB`,
  );
  console.log(`lab page built in ${relative(process.cwd(), OUT)}: ${sizes.join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
