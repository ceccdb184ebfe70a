import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRATEGY_NAMES } from '@app/contract';
import { readBaselines, ROOT } from '../readme';
import { sectionBody } from './doc-sections';
import { GENERATED, renderGenerated } from './generated-docs';
import { readmeStrategies } from './readme-strategies';

// The figures of the README and of docs/ come from the runs committed in bench/baselines/ (`npm run
// readme`): a figure edited by hand, a run replaced without regenerating, or a broken marker all fail here.
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');
const baselines = readBaselines();

describe('the generated docs', () => {
  it('have committed runs for every generated section', () => {
    expect(baselines.bench?.loads.length).toBeGreaterThan(0);
    expect(baselines.bench?.lessons.length).toBeGreaterThan(0);
    expect(baselines.locks?.results.length).toBeGreaterThan(0);
    expect(baselines.chaos?.results.length).toBeGreaterThan(0);
    expect(baselines.lab?.readyMs).toBeGreaterThan(0);
    expect(baselines.soak?.phases.length).toBeGreaterThan(0);
  });

  it.each(Object.keys(GENERATED))('%s quotes exactly what the committed runs render', (file) => {
    const doc = read(file);
    for (const name of Object.keys(GENERATED[file])) expect(sectionBody(doc, name)).not.toBe('');
    expect(renderGenerated(file, doc, baselines)).toBe(doc);
  });

  it('put the full tables of both loads, the ceilings and the micro-bench in docs/bench.md', () => {
    const bench = read('docs/bench.md');
    expect(sectionBody(bench, 'bench')).toContain('**workMs 0**');
    expect(sectionBody(bench, 'bench')).toMatch(/ceilings: http \d+\/s, pg hot row \d+\/s, redis \d+\/s/);
    expect(sectionBody(bench, 'locks')).toContain('| lock | grants/s | failed |');
    expect(sectionBody(bench, 'locks')).toContain('owner-checked:no-local-handoff');
  });

  it('put the fault suite, failover and soak runs in docs/reliability.md', () => {
    const doc = read('docs/reliability.md');
    for (const fault of ['replica-kill', 'redis-restart', 'postgres-restart'])
      expect(sectionBody(doc, 'reliability')).toContain(`| ${fault} |`);
    expect(sectionBody(doc, 'reliability')).toMatch(/Every invariant held|Invariants broken/);
    expect(sectionBody(doc, 'soak')).toMatch(/^- event-loop lag p99: [\d.]+ ms$/m);
    expect(sectionBody(doc, 'soak')).not.toMatch(/\bmet\b|≤/);
  });
});

describe('README.md', () => {
  it('reads in five minutes: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('gives exactly the two set-up commands on its first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 30).join('\n');
    const commands = firstScreen.split('\n').filter((line) => /^(bash|npm|npx) /.test(line));
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^bash tools\/setup\.sh && npm run demo /);
    expect(commands[1]).toMatch(/^bash tools\/setup\.sh && npm test /);
  });

  it('shows the lab screenshot and a row per strategy, in the order of the code', () => {
    expect(readme).toContain('](docs/lab.png)');
    expect(readmeStrategies(readme)).toEqual([...STRATEGY_NAMES]);
  });

  it('shows one compact results table: a row per strategy, grabs/s per load, the verdict', () => {
    const body = sectionBody(readme, 'results') ?? '';
    const loads = baselines.bench!.loads.map((l) => l.workMs);
    expect(body).toContain(`| strategy | ${loads.map((w) => `grabs/s at workMs ${w}`).join(' | ')} | verdict |`);
    const rows = body.split('\n').filter((l) => /^\| `/.test(l));
    expect(rows.map((r) => r.split('`')[1])).toEqual(baselines.bench!.settings.strategies);
    expect(rows.find((r) => r.startsWith('| `none` |'))).toMatch(/\| OVERSOLD \+ LOST UPDATES \|$/);
  });

  it('states the lessons with their numbers and whether they held, and no target', () => {
    const body = sectionBody(readme, 'lessons') ?? '';
    const items = body.split('\n').filter((l) => l.startsWith('- '));
    expect(items.length).toBeGreaterThanOrEqual(baselines.bench!.lessons.length);
    for (const item of items) expect(item).toMatch(/\d.*\*\*(Held|Not held)\*\*/);
    expect(readme).not.toMatch(/\bmet\b|NOT met|target/i);
  });
});
