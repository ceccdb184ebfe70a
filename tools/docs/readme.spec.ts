import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sectionBody } from './doc-sections';

// The README's figures come from real runs (`npm run readme`); a section left empty or a broken
// marker would silently drop them.
const readme = readFileSync(join(resolve(__dirname, '..', '..'), 'README.md'), 'utf8');

describe('README.md', () => {
  it('shows a real bench run, the micro-bench and where each target stands', () => {
    const body = sectionBody(readme, 'performance') ?? '';
    expect(body).toContain('| strategy | verdict | oversold | lost updates | grabs/s |');
    expect(body).toContain('| lock | grants/s | failed |');
    expect(body).toMatch(/^- (met|\*\*not met\*\*): segmented/m);
    expect(body).toMatch(/^- (met|\*\*not met\*\*): owner-checked ≥ 1.5× the best peer/m);
  });

  it('shows a real fault-suite run with a row per fault and strategy', () => {
    const body = sectionBody(readme, 'reliability') ?? '';
    for (const fault of ['replica-kill', 'redis-restart', 'postgres-restart'])
      expect(body).toContain(`| ${fault} | watchdog |`);
    expect(body).toMatch(/Every invariant held|Invariants broken/);
  });

  it('gives exactly the two set-up commands on its first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 30).join('\n');
    const commands = firstScreen.split('\n').filter((line) => /^(bash|npm|npx) /.test(line));
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/npm run demo/);
    expect(commands[1]).toMatch(/npm test/);
  });
});
