import { renderLabSection, type LabPageTiming } from './page-timing';

const timing = (bytes: number, readyMs: number): LabPageTiming => ({
  measuredAt: '2026-11-25T10:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', node: 'v20.20.2', platform: 'linux', totalMemGb: 24 },
  url: 'http://127.0.0.1:28080/lab/',
  bytes,
  loadMs: readyMs - 40,
  readyMs,
});

describe('renderLabSection', () => {
  it('states the weight and the time to a ready page, with no target', () => {
    const body = renderLabSection(timing(31 * 1024, 180));
    expect(body).toContain('`npm run lab:screenshot` on 2026-11-25 (2 × Test CPU');
    expect(body).toContain('- the whole page weighs 31.0 KiB (the document and every file it loads)');
    expect(body).toContain('- every control is filled after 180 ms (load event after 140 ms)');
    expect(body).not.toMatch(/\bmet\b|target/i);
  });
});
