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
  it('states the weight and the time to a ready page against their targets', () => {
    const body = renderLabSection(timing(31 * 1024, 180));
    expect(body).toContain('`npm run lab:screenshot` on 2026-11-25 (2 × Test CPU');
    expect(body).toContain('- met: the whole page under 300 KB: 31.0 KiB');
    expect(body).toContain('- met: loads in under 1 s: every control filled after 180 ms (load event after 140 ms)');
  });

  it('says not met when the page is too heavy or too slow', () => {
    const body = renderLabSection(timing(300 * 1024, 1000));
    expect(body).toContain('- **not met**: the whole page under 300 KB: 300.0 KiB');
    expect(body).toContain('- **not met**: loads in under 1 s: every control filled after 1000 ms');
  });
});
