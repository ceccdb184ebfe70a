import type { StepResult } from '../step';
import { renderMarkdown, summaryLine } from './markdown';

const passed: StepResult = {
  name: 'set-nx-px',
  title: "A slow holder deletes the next holder's lock",
  explain: 'A pauses past its lease.',
  expected: 'two holders overlap',
  status: 'passed',
  verdict: 'as expected',
  summary: 'A and B overlapped.',
  observed: {
    maxConcurrentHolders: 2,
    keyAfterARelease: 'gone',
    foreignDelete: true,
    fenceToken: null,
    statuses: '{"200":3}',
  },
  checks: [{ what: 'max concurrent holders', expected: '≥ 2', observed: 2, pass: true }],
  durationMs: 1600,
  timeline: { title: 't', lanes: ['api-1'], bars: [], ticks: [] },
};
const failed: StepResult = {
  ...passed,
  name: 'owner-checked',
  status: 'failed',
  verdict: 'NOT as expected: C | refused',
  checks: [{ what: 'C | refused', expected: '429', observed: 200, pass: false }],
  timeline: undefined,
};
const skipped: StepResult = {
  ...passed,
  name: 'redlock',
  status: 'skipped',
  verdict: 'skipped: the API does not offer redlock',
  summary: '',
  observed: {},
  checks: [],
  timeline: undefined,
  reason: 'the API does not offer redlock',
};

describe('renderMarkdown', () => {
  const md = renderMarkdown([passed, failed, skipped], {
    runLine: 'Run on 2026-11-22.',
    timelinePath: (r) => `run-${r.name}.svg`,
  });

  it('opens with the run line, a count of verdicts and one overview row per step', () => {
    expect(
      md.startsWith(
        '# Walkthrough results\n\nRun on 2026-11-22.\n\n3 steps: 1 as expected, 1 not as expected, 1 skipped.',
      ),
    ).toBe(true);
    expect(md).toContain('| 1 | `set-nx-px` | ✅ as expected | A and B overlapped. |');
    expect(md).toContain(
      '| 3 | `redlock` | ⏭️ skipped: the API does not offer redlock | the API does not offer redlock |',
    );
  });

  it('writes each figure with a readable label and value', () => {
    expect(md).toContain('| max concurrent holders | 2 |');
    expect(md).toContain('| foreign delete | yes |');
    expect(md).toContain('| fence token | — |');
    expect(md).toContain('| key after a release | gone |');
  });

  it('escapes pipes in table cells so a row stays one row', () => {
    expect(md).toContain('| C \\| refused | 429 | 200 | ❌ |');
    expect(md).toContain('❌ NOT as expected: C \\| refused');
  });

  it('embeds the timeline image only for steps that have one', () => {
    expect(md).toContain('![timeline of set-nx-px](run-set-nx-px.svg)');
    expect(md).not.toContain('run-owner-checked.svg');
    expect(md).not.toContain('run-redlock.svg');
  });

  it("shows a skipped step's story and reason but no figures", () => {
    const section = md.slice(md.indexOf('## 3. `redlock`'));
    expect(section).toContain('**Verdict:** ⏭️ skipped: the API does not offer redlock');
    expect(section).not.toContain('| observed | value |');
  });

  it('can be embedded under a deeper heading without its own title', () => {
    const embedded = renderMarkdown([passed], { embedded: true, headingLevel: 3, explain: false });
    expect(embedded).not.toContain('# Walkthrough results');
    expect(embedded).not.toContain('A pauses past its lease.');
    expect(md).toContain('A pauses past its lease.');
    expect(embedded).toContain("### 1. `set-nx-px`: A slow holder deletes the next holder's lock");
  });
});

describe('summaryLine', () => {
  it('counts only the kinds present', () => {
    expect(summaryLine([passed])).toBe('1 step: 1 as expected.');
    expect(summaryLine([passed, { ...passed, status: 'error' }])).toBe('2 steps: 1 as expected, 1 errored.');
  });
});
