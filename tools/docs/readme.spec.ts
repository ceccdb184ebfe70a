import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readBaselines } from '../readme';
import { sectionBody } from './doc-sections';
import { renderReadmeSections } from './readme-sections';

// The README's figures come from the runs committed in bench/baselines/ (`npm run readme`): a
// figure edited by hand, a run replaced without regenerating, or a broken marker all fail here.
const readme = readFileSync(join(resolve(__dirname, '..', '..'), 'README.md'), 'utf8');
const baselines = readBaselines();

describe('README.md', () => {
  it('has committed runs for every generated section', () => {
    expect(baselines.bench?.loads.length).toBeGreaterThan(0);
    expect(baselines.locks?.results.length).toBeGreaterThan(0);
    expect(baselines.chaos?.results.length).toBeGreaterThan(0);
    expect(baselines.lab?.readyMs).toBeGreaterThan(0);
    expect(baselines.soak?.phases.length).toBeGreaterThan(0);
  });

  it("quotes the lab page's measured weight and load time, and the soak's verdict", () => {
    expect(sectionBody(readme, 'lab')).toMatch(/: loads in under 1 s: every control filled after \d+ ms/);
    expect(sectionBody(readme, 'soak')).toMatch(/: RSS growth ≤ 15\.0% after the warm-up: worst/);
    expect(sectionBody(readme, 'soak')).toMatch(/: event-loop lag p99 ≤ 50 ms: /);
  });

  it('quotes exactly what the committed runs render', () => {
    expect(renderReadmeSections(readme, baselines)).toBe(readme);
  });

  it('shows both loads, the ceilings, the micro-bench with its ablation, and where each target stands', () => {
    const body = sectionBody(readme, 'performance') ?? '';
    expect(body).toContain('**workMs 0**');
    expect(body).toMatch(/ceilings: http \d+\/s, pg hot row \d+\/s, redis \d+\/s/);
    expect(body).toContain('| lock | grants/s | of ceiling | failed |');
    expect(body).toMatch(/^- ceiling: the section alone, no lock, \d+ sections\/s/m);
    expect(body).toContain('owner-checked:no-local-handoff');
    expect(body).toMatch(/^- (met|\*\*not met\*\*): db-atomic at workMs 0/m);
  });

  it('shows a real fault-suite run with a row per fault and strategy', () => {
    const body = sectionBody(readme, 'reliability') ?? '';
    for (const fault of ['replica-kill', 'redis-restart', 'postgres-restart']) expect(body).toContain(`| ${fault} |`);
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
