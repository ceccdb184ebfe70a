import { slowDb, slowDbRun } from '../../test/fixtures/slow-db-round';
import type { SellOutRun } from '../sell-out/sell-out-round';
import type { BenchReport } from '../types';
import { renderHtml } from './render-html';
import { fourStrategies, sampleReport, sampleResult } from '../../test/fixtures/bench-report';
import { escapeXml } from '../../tools/report/format';

const run = (strategy: string, sellOutMs: number): SellOutRun => ({
  strategy,
  segments: strategy === 'segmented' ? 8 : 1,
  sellOutMs,
  granted: 300,
  stockLeft: 0,
  samples: [{ atMs: 10, stocks: [30] }],
});

/** A run where every lesson of the bench has its strategies: four, plus the coalescer, the race and the slow database. */
function everyLesson(): BenchReport {
  const four = fourStrategies();
  const [zero, five] = four.loads;
  const stream = slowDbRun('redis-stream', 12, 40);
  return sampleReport(
    [
      {
        ...zero,
        results: [
          ...zero.results,
          sampleResult({ strategy: 'synchronized', workMs: 0 }),
          sampleResult({ strategy: 'db-batched', workMs: 0, commits: 100 }),
        ],
      },
      five,
    ],
    {
      sellOut: {
        buyers: 300,
        stock: 300,
        inFlight: 64,
        workMs: 5,
        runs: [run('owner-checked', 2400), run('segmented', 600)],
      },
      slowDb: slowDb([slowDbRun('db-atomic', 480, 990), slowDbRun('redis-lua', 500, 1010), stream]),
    },
  );
}

describe('the evidence of each lesson', () => {
  const report = everyLesson();
  const html = renderHtml(report);
  // The report after its list of lessons: where the charts and tables are.
  const body = html.slice(html.indexOf('</ul>'));

  it('is a chart or section the HTML report shows, named in the report beside the lesson', () => {
    expect(report.lessons).toHaveLength(8);
    for (const l of report.lessons) {
      expect({ id: l.id, found: body.includes(escapeXml(l.shownBy ?? '–')) }).toEqual({ id: l.id, found: true });
      expect(html).toContain(`<span class="see">see: ${escapeXml(l.shownBy ?? '')}</span>`);
    }
  });

  it('draws commits per grant for every load, the coalescer below one', () => {
    for (const workMs of [0, 5]) expect(body).toContain(`PostgreSQL commits per grant at workMs ${workMs}`);
    expect(body).toContain('<title>db-batched commits per grant: 0.2 commits</title>');
  });

  it("draws the slow database's waits by arrival, with the stall marked", () => {
    const section = body.slice(body.indexOf('<h2>A slow database</h2>'));
    expect(section).toContain('>stock row held</text>');
    expect(section).toContain('>released</text>');
    expect(section.match(/<polyline /g)).toHaveLength(3);
    expect(section).toContain('<td class="left">redis-stream</td><td class="right">12</td><td class="right">40</td>');
  });
});
