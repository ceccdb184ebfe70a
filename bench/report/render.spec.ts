import type { BenchReport } from '../types';
import { sampleLoad, sampleReport, sampleStatuses, sampleVerdict } from './fixtures';
import { threeStrategies } from './three-strategies.fixture';
import { fileStamp } from './format';
import { renderHtml } from './render-html';
import { renderMarkdown } from './render-markdown';
import { renderLoadTable, renderTable } from './render-table';
import { barChart } from './svg-charts';

const CEILINGS = 'ceilings: http 4210/s, pg hot row 1480/s, redis 9350/s';

/** What follows each red start, up to the next escape (the reset). */
const redCells = (coloured: string) =>
  coloured
    .split('\x1b[31m')
    .slice(1)
    .map((c) => c.split('\x1b')[0].trim());

/** owner-checked turned buyers away with stock left, with two 502s: not what scenarios.ts expects. */
function undersold(): BenchReport {
  return sampleReport([
    sampleLoad(0, [
      {
        strategy: 'owner-checked',
        audit: {
          initialStock: 500,
          stock: 20,
          grants: 480,
          oversold: 0,
          lostUpdates: 0,
          maxConcurrentHolders: 1,
          statements: 480,
        },
        statuses: sampleStatuses({ granted: 480, soldOut: 0, lockTimeout: 518, outsideContract: 2 }),
        reconciliation: { grantedSeen: 480, grantsInDb: 481, matches: false, unanswered: 0 },
        verdict: sampleVerdict(['UNDERSOLD', 'FAILED', 'NOT RECONCILED'], []),
        soldOut: undefined,
      },
    ]),
  ]);
}

describe('renderTable', () => {
  const table = renderTable(threeStrategies());
  const rows = table.split('\n');
  /** The rows of the load headed `workMs N`, up to the blank line after it. */
  const section = (workMs: number) => {
    const start = rows.indexOf(`workMs ${workMs}`);
    expect(start).toBeGreaterThan(0);
    const end = rows.indexOf('', start);
    return rows.slice(start + 1, end === -1 ? undefined : end);
  };

  it('heads the run with the machine and the ceilings line', () => {
    expect(rows[0]).toBe('2 × Test CPU <fast> & co, Node v20.20.2; stock 500, 1000 requests, 50 connections');
    expect(rows[1]).toBe(CEILINGS);
  });

  it('prints a table per load, in the order run: a header, a rule and one row per strategy', () => {
    expect(rows.indexOf('workMs 0')).toBeLessThan(rows.indexOf('workMs 5'));
    for (const workMs of [0, 5]) {
      const lines = section(workMs);
      expect(lines).toHaveLength(5);
      expect(lines[0]).toMatch(
        /^strategy\s+verdict\s+as expected\s+oversold\s+lost upd\s+holders\s+grabs\/s\s+of ceiling/,
      );
      expect(lines[1]).toMatch(/^-+( +-+)+$/);
      expect(lines.slice(2).map((l) => l.split(/\s+/)[0])).toEqual(['owner-checked', 'none', 'segmented']);
    }
  });

  it("puts each load's verdict and audit figures next to its throughput and its ceiling", () => {
    const none0 = section(0).find((r) => r.startsWith('none'));
    const none5 = section(5).find((r) => r.startsWith('none'));
    expect(none0).toMatch(/none\s+OVERSOLD \+ LOST UPDATES\s+yes\s+188\s+402\s+17\s+3121\s+2\.11 pg hot row\s/);
    expect(none5).toMatch(/none\s+OVERSOLD \+ LOST UPDATES\s+yes\s+277\s+489\s+41\s+2346\s+1\.58 pg hot row\s/);
    expect(section(0).find((r) => r.startsWith('owner-checked'))).toMatch(
      /correct\s+yes\s+0\s+0\s+1\s+1207\s+0\.82 pg hot row\s+33\.5 \/ 62\.5\s+2\.7 \/ 8\.4\s+3987\s+500\s+500\s/,
    );
    expect(section(5).find((r) => r.startsWith('segmented'))).toMatch(/\s524\s+0\.12 http\s/);
  });

  it('ends with the targets', () => {
    expect(rows.slice(-2)).toEqual([
      'met: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 3.99× (524 vs 131 grabs/s)',
      'met: owner-checked: lock utilisation ≥ 0.8 at workMs 5: 0.910 (lock held 0.94 of the window)',
    ]);
    expect(table).toContain('–: db-atomic at workMs 0 ≥ 0.8 × pg hot row ceiling: not run');
  });

  it('colours only failing cells red when asked, in every load', () => {
    expect(table).not.toContain('\x1b[31m');
    expect(redCells(renderTable(threeStrategies(), true))).toEqual([
      'OVERSOLD + LOST UPDATES',
      '188',
      '402',
      'OVERSOLD + LOST UPDATES',
      '277',
      '489',
    ]);
  });

  it('shows a verdict that is not the expected one, answers outside the contract and a reconciliation gap in red', () => {
    const load = undersold().loads[0];
    const row = renderLoadTable(load).split('\n')[2];
    expect(row).toMatch(/^owner-checked\s+UNDERSOLD \+ FAILED \+ NOT RECONCILED\s+NO \(correct\)\s+0\s+0\s+1\s/);
    expect(row).toMatch(/\s480\s+0\s+518\s+0\s+2\s/); // 200, 409, 429, 503, other
    expect(row).toMatch(/\sNO 480≠481$/);
    expect(redCells(renderLoadTable(load, true))).toEqual([
      'UNDERSOLD + FAILED + NOT RECONCILED',
      'NO (correct)',
      '2',
      'NO 480≠481',
    ]);
  });
});

describe('renderMarkdown', () => {
  const md = renderMarkdown(threeStrategies());

  it('heads the report with machine, Node version, the loads, method and the ceilings', () => {
    expect(md).toContain('2 × Test CPU <fast> & co');
    expect(md).toContain('Node: v20.20.2');
    expect(md).toContain('loads workMs 0 and 5, segments 8; 3 replicas behind http://127.0.0.1:28080');
    expect(md).toContain('Method paragraph: autocannon with a fixed amount.');
    expect(md).toContain(`\n${CEILINGS}. Ceilings method paragraph.\n`);
  });

  it('holds a Markdown table per load, failures in bold', () => {
    expect(md.match(/^\| strategy \| verdict \| as expected \|/gm)).toHaveLength(2);
    const at0 = md.indexOf('\n## workMs 0\n');
    const at5 = md.indexOf('\n## workMs 5\n');
    expect(at0).toBeGreaterThan(0);
    expect(at5).toBeGreaterThan(at0);
    const row0 = '| none | **OVERSOLD + LOST UPDATES** | yes | **188** | **402** | 17 | 3121 | 2.11 pg hot row |';
    const row5 = '| none | **OVERSOLD + LOST UPDATES** | yes | **277** | **489** | 41 | 2346 | 1.58 pg hot row |';
    expect(md.indexOf(row0)).toBeGreaterThan(at0);
    expect(md.indexOf(row0)).toBeLessThan(at5);
    expect(md.indexOf(row5)).toBeGreaterThan(at5);
  });

  it('shows latency split, sold-out answers, answers and utilisation per strategy', () => {
    expect(md).toContain(
      '| owner-checked | correct | yes | 0 | 0 | 1 | 131 | 0.09 pg hot row | 14.5 / 91.0 | 3.2 / 9.5 | 3333 | 500 | 500 | 0 | 0 | 0 | 0.91 | 0.94 | 9876 (1.30 cores) | yes |',
    );
    expect(md).toMatch(/^\| none \|.*\| – \| 777 \| 223 \| 0 \| 0 \| 0 \| 0\.91 \| – \| – \| yes \|$/m);
  });

  it('explains every verdict flag', () => {
    for (const flag of ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS', 'UNDERSOLD', 'FAILED', 'NOT RECONCILED']) {
      expect(md).toContain(`${flag} (`);
    }
  });

  it('checks the targets it can measure', () => {
    expect(md).toContain(
      '- met: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 3.99× (524 vs 131 grabs/s)',
    );
    expect(md).toContain(
      '- met: owner-checked: lock utilisation ≥ 0.8 at workMs 5: 0.910 (lock held 0.94 of the window)',
    );
    expect(md).toContain(
      '- met: sold-out answers ≥ 0.7 × http ceiling: median of 4 sold-out rounds 3333/s = 0.79× 4210/s (slowest 3333/s, fastest 3987/s)',
    );
    expect(md).toContain(
      '- met: every granted grab with workMs=300 takes ≥ 300 ms, every strategy: fastest 301 ms over 3 strategies',
    );
    expect(md).toContain('- –: redis-lua at workMs 0 ≥ 0.9 × db-atomic: not run');
  });

  it('bolds what went wrong in a row that is not as expected', () => {
    expect(renderMarkdown(undersold())).toContain(
      '| owner-checked | **UNDERSOLD + FAILED + NOT RECONCILED** | **NO (correct)** | 0 | 0 | 1 |',
    );
  });
});

describe('renderHtml', () => {
  const html = renderHtml(threeStrategies());

  it('is self-contained: no script, no linked file, no external URL', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    // The only URL is the SVG namespace name, which browsers never fetch.
    expect(html.match(/https?:\/\/[^"\s<]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg')).toEqual([]);
  });

  it('has a section per load, each with its table and three charts drawn inline', () => {
    expect(html.match(/<h2>workMs \d+<\/h2>/g)).toEqual(['<h2>workMs 0</h2>', '<h2>workMs 5</h2>']);
    expect(html.match(/<table>/g)).toHaveLength(2);
    expect(html.match(/<svg /g)).toHaveLength(6);
    for (const workMs of [0, 5]) {
      expect(html).toContain(`Throughput at workMs ${workMs}, and the ceiling that bounds each`);
      expect(html).toContain(`Oversold and lost updates at workMs ${workMs}`);
      expect(html).toContain(`Latency at workMs ${workMs}: granted and turned away`);
    }
  });

  it('draws each strategy against the ceiling that bounds it', () => {
    expect(html).toContain('<title>owner-checked ceiling: 1480 grabs/s</title>');
    expect(html).toContain('<title>segmented ceiling: 4210 grabs/s</title>');
  });

  it('shows the ceilings, the figures, and escapes text', () => {
    expect(html).toContain(`<li>${CEILINGS}</li>`);
    expect(html).toContain('<p class="method">Ceilings method paragraph.</p>');
    expect(html).toContain('>2346<');
    expect(html).toContain('>3121<');
    expect(html).toContain('>OVERSOLD + LOST UPDATES<');
    expect(html).toContain('Test CPU &lt;fast&gt; &amp; co');
    expect(html).not.toContain('<fast>');
  });

  it('marks failing cells and targets not met', () => {
    expect(html).toContain('<td class="left bad">OVERSOLD + LOST UPDATES</td>');
    expect(html).toContain('<td class="right bad">277</td>');
    expect(html).not.toContain('<li class="bad">');
    const slow = threeStrategies();
    const notMet = renderHtml({ ...slow, ceilings: { ...slow.ceilings, httpPerSec: 6000 } });
    expect(notMet).toContain(
      '<li class="bad">NOT met: sold-out answers ≥ 0.7 × http ceiling: median of 4 sold-out rounds 3333/s = 0.56× 6000/s (slowest 3333/s, fastest 3987/s)</li>',
    );
  });
});

describe('barChart', () => {
  it('scales bars to the largest value and paints per-row colours', () => {
    const svg = barChart(
      'T',
      'u',
      [{ name: 's', color: 'green' }],
      [
        { label: 'a', values: [100] },
        { label: 'b', values: [50], colors: ['red'] },
      ],
    );
    expect(svg).toMatch(/width="460\.0" height="13" fill="green"/);
    expect(svg).toMatch(/width="230\.0" height="13" fill="red"/);
  });
});

describe('fileStamp', () => {
  it('makes a file-name-safe stamp', () => {
    expect(fileStamp('2026-11-22T04:30:05.123Z')).toBe('2026-11-22T04-30-05Z');
  });
});
