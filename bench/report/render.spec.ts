import type { BenchReport } from '../types';
import {
  fourStrategies,
  sampleLoad,
  sampleReport,
  sampleStatuses,
  sampleVerdict,
} from '../../test/fixtures/bench-report';
import { renderHtml } from './render-html';
import { lessonItem, markdownTable, renderLessons, renderTable } from './render-text';
import { barChart } from './bar-chart';

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
  const table = renderTable(fourStrategies());
  const rows = table.split('\n');
  /** The rows of the load headed `workMs N`, up to the blank line after it. */
  const section = (workMs: number) => {
    const start = rows.indexOf(`workMs ${workMs}`);
    expect(start).toBeGreaterThan(0);
    const end = rows.indexOf('', start);
    return rows.slice(start + 1, end === -1 ? undefined : end);
  };

  it('heads the run with the machine, the round and the ceilings line', () => {
    expect(rows.slice(0, 3)).toEqual([
      '2 × Test CPU <fast> & co, Node v20.20.2',
      'stock 500, 1000 grabs per round over 50 connections',
      CEILINGS,
    ]);
  });

  it('prints a summary per load of five columns, in the order run, no line over 100 characters', () => {
    expect(rows.indexOf('workMs 0')).toBeLessThan(rows.indexOf('workMs 5'));
    for (const workMs of [0, 5]) {
      const lines = section(workMs);
      expect(lines).toHaveLength(6);
      expect(lines[0].split(/\s{2,}/)).toEqual(['strategy', 'verdict', 'grabs/s', 'granted p99 ms', 'of ceiling']);
      expect(lines[1]).toMatch(/^-+( +-+){4}$/);
      expect(lines.slice(2).map((l) => l.split(/\s+/)[0])).toEqual(['owner-checked', 'none', 'segmented', 'db-atomic']);
    }
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(100);
  });

  it("puts each load's verdict next to its throughput, its tail and its ceiling", () => {
    expect(section(0).find((r) => r.startsWith('none'))).toMatch(
      /^none\s+OVERSOLD \+ LOST UPDATES\s+3121\s+91\.0\s+2\.11 pg hot row$/,
    );
    expect(section(5).find((r) => r.startsWith('none'))).toMatch(/\s2346\s+91\.0\s+1\.58 pg hot row$/);
    expect(section(0).find((r) => r.startsWith('owner-checked'))).toMatch(/correct\s+1207\s+91\.0\s+0\.82 pg hot row$/);
    expect(section(5).find((r) => r.startsWith('segmented'))).toMatch(/\s524\s+91\.0\s+0\.12 http$/);
  });

  it('prints no target and no lesson (they come last, apart)', () => {
    expect(table).not.toMatch(/\bmet\b|target|held/i);
  });

  it('colours only failing cells red when asked, in every load', () => {
    expect(table).not.toContain('\x1b[31m');
    expect(redCells(renderTable(fourStrategies(), true))).toEqual([
      'OVERSOLD + LOST UPDATES',
      'OVERSOLD + LOST UPDATES',
    ]);
  });

  it('says what was expected of a verdict that differs, in red', () => {
    expect(renderTable(undersold()).split('\n').at(-1)).toMatch(
      /^owner-checked\s+UNDERSOLD \+ FAILED \+ NOT RECONCILED \(expected correct\)\s+125\s/,
    );
    expect(redCells(renderTable(undersold(), true))).toEqual([
      'UNDERSOLD + FAILED + NOT RECONCILED (expected correct)',
    ]);
  });
});

describe('renderLessons', () => {
  it('heads the lessons, marks each held or not, and keeps every line within 100 characters', () => {
    const lines = renderLessons(fourStrategies()).split('\n');
    expect(lines[0]).toBe('What this run teaches:');
    expect(lines.filter((l) => /^(held|not held) {2,}\S/.test(l))).toHaveLength(fourStrategies().lessons.length);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines.join('\n')).not.toMatch(/\bmet\b/);
  });
});

describe('markdownTable and lessonItem (the README sections)', () => {
  const report = fourStrategies();
  const md = report.loads.flatMap(markdownTable).join('\n');

  it('marks a lesson held or not, with its two numbers when not', () => {
    expect(lessonItem({ id: 'a', text: 'It held.', held: true })).toBe('- It held. **Held**.');
    expect(lessonItem({ id: 'b', text: 'It did not.', held: false, notHeld: '1 against 2' })).toBe(
      '- It did not. **Not held**: 1 against 2.',
    );
  });

  it('holds a Markdown table per load with every column, failures in bold', () => {
    expect(
      md.match(/^\| strategy \| verdict \| grabs\/s \| granted p99 ms \| of ceiling \| oversold \|/gm),
    ).toHaveLength(2);
    expect(markdownTable(report.loads[0]).join('\n')).toContain(
      '| none | **OVERSOLD + LOST UPDATES** | 3121 | 91.0 | 2.11 pg hot row | **188** | **402** | 17 |',
    );
    expect(md).toContain(
      '| owner-checked | correct | 131 | 91.0 | 0.09 pg hot row | 0 | 0 | 1 | 1.00 | 14.5 | – | 9.5 | 3333 | 500 | 500 | 0 | 0 | 0 | 2.9 | 9876 | yes |',
    );
  });

  it("shows redis-stream's accept-to-durable latency", () => {
    const durable = { count: 2, p50: 12, p99: 340, max: 340 };
    expect(markdownTable(sampleLoad(0, [{ strategy: 'redis-stream', acceptToDurable: durable }])).join('\n')).toContain(
      '| 12.0/340 |',
    );
  });

  it('bolds what went wrong in a row that is not as expected', () => {
    expect(markdownTable(undersold().loads[0]).join('\n')).toContain(
      '| owner-checked | **UNDERSOLD + FAILED + NOT RECONCILED (expected correct)** | 125 |',
    );
  });
});

describe('renderHtml', () => {
  const html = renderHtml(fourStrategies());

  it('is self-contained: no script, no linked file, no external URL', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    // The only URL is the SVG namespace name, which browsers never fetch.
    expect(html.match(/https?:\/\/[^"\s<]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg')).toEqual([]);
  });

  it('puts the lessons at the top, before the first table', () => {
    const at = html.indexOf('<h2>What this run teaches</h2>');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(html.indexOf('<table>'));
    expect(html).toContain(`<li><span class="held">held</span> ${fourStrategies().lessons[0].text}`);
  });

  it('has a section per load, each with its table and four charts drawn inline', () => {
    expect(html.match(/<h2>workMs \d+<\/h2>/g)).toEqual(['<h2>workMs 0</h2>', '<h2>workMs 5</h2>']);
    expect(html.match(/<table>/g)).toHaveLength(2);
    expect(html.match(/<svg /g)).toHaveLength(8);
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

  it('explains every verdict flag in its legend', () => {
    for (const flag of ['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS', 'UNDERSOLD', 'FAILED', 'NOT RECONCILED']) {
      expect(html.slice(html.indexOf('<p class="method">Verdict:'))).toContain(`${flag} (`);
    }
  });

  it('shows the ceilings and the figures, marks failing cells, and escapes text', () => {
    expect(html).toContain(`<li>${CEILINGS}</li>`);
    expect(html).toContain('<li>Method: Method paragraph: autocannon with a fixed amount.</li>');
    expect(html).toContain('<td class="left bad">OVERSOLD + LOST UPDATES</td>');
    expect(html).toContain('<td class="right bad">277</td>');
    expect(html).toContain('Test CPU &lt;fast&gt; &amp; co');
    expect(html).not.toContain('<fast>');
    expect(html).not.toMatch(/\bmet\b|target/i);
  });

  it('marks a lesson that did not hold, with its two numbers', () => {
    const report = fourStrategies();
    const slow = sampleReport(report.loads, { ceilings: { ...report.ceilings, httpPerSec: 9000 } });
    expect(renderHtml(slow)).toMatch(
      /<span class="bad">not held<\/span> Turning away .*<span class="bad">\(3,333\/s against http 9,000\/s\)<\/span>/,
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
