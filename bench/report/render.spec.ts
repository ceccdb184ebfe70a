import { threeStrategies } from './fixtures';
import { fileStamp } from './format';
import { renderHtml } from './render-html';
import { renderMarkdown } from './render-markdown';
import { renderTable } from './render-table';
import { barChart } from './svg-charts';

describe('renderTable', () => {
  const table = renderTable(threeStrategies());
  const rows = table.split('\n');

  it('has a header, a rule and one row per strategy', () => {
    expect(rows).toHaveLength(6); // the run line, header, rule, three strategies
    expect(rows[1]).toMatch(/strategy\s+verdict\s+oversold\s+lost upd\s+holders\s+grabs\/s/);
  });

  it('puts the verdict and the audit figures next to the throughput', () => {
    const none = rows.find((r) => r.startsWith('none'))!;
    expect(none).toMatch(/none\s+OVERSOLD \+ LOST UPDATES\s+277\s+489\s+41\s+2346\s/);
    expect(rows.find((r) => r.startsWith('owner-checked'))).toMatch(/correct\s+0\s+0\s+1\s+131\s/);
  });

  it('colours only failing cells red when asked', () => {
    expect(table).not.toContain('\x1b[31m');
    const coloured = renderTable(threeStrategies(), true);
    // What follows each red start, up to the next escape (the reset).
    const redCells = coloured
      .split('\x1b[31m')
      .slice(1)
      .map((c) => c.split('\x1b')[0].trim());
    expect(redCells).toEqual(['OVERSOLD + LOST UPDATES', '277', '489']);
  });
});

describe('renderMarkdown', () => {
  const md = renderMarkdown(threeStrategies());

  it('heads the report with machine, Node version and method', () => {
    expect(md).toContain('2 × Test CPU <fast> & co');
    expect(md).toContain('Node: v20.20.2');
    expect(md).toContain('Method paragraph: autocannon with a fixed amount.');
  });

  it('holds a Markdown table with the figures, failures in bold', () => {
    expect(md).toMatch(/^\| strategy \| verdict \|/m);
    expect(md).toContain('| none | **OVERSOLD + LOST UPDATES** | **277** | **489** |');
    expect(md).toContain('| 2346 |');
    expect(md).toContain('| 0.99 |');
    expect(md).toMatch(/^\| owner-checked \|.*\| 151 \| 321 \| 75\.5 \| yes \|$/m);
    expect(md).toMatch(/^\| none \|.*\| 151 \| – \| 75\.5 \| yes \|$/m);
  });

  it('checks the targets it can measure', () => {
    expect(md).toContain('met: segmented (8 segments) ≥ 3× owner-checked grabs/s at workMs 5: 3.99× (524 vs 131)');
    expect(md).toContain('met: owner-checked: lock utilisation ≥ 0.8: 0.91');
  });
});

describe('renderHtml', () => {
  const html = renderHtml(threeStrategies());

  it('is self-contained: no script, no linked file, no external URL', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    // The only URL is the SVG namespace name, which browsers never fetch.
    expect(html.match(/https?:\/\/[^"\s<]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg')).toEqual([]);
  });

  it('draws the three charts inline', () => {
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('Throughput per strategy');
    expect(html).toContain('Oversold and lost updates per strategy');
    expect(html).toContain('Latency percentiles');
  });

  it('shows the figures and escapes text', () => {
    expect(html).toContain('>2346<');
    expect(html).toContain('>OVERSOLD + LOST UPDATES<');
    expect(html).toContain('Test CPU &lt;fast&gt; &amp; co');
    expect(html).not.toContain('<fast>');
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
