import { parseBusyMs } from './machine';

describe('parseBusyMs', () => {
  it('adds user, nice, system, irq and softirq of every core, in ms, leaving idle, iowait and steal out', () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  100 2 30 9000 7 1 20 500 40 3\ncpu0 50 1 15 4500 3 0 10 250 20 1\n';
    expect(parseBusyMs(stat)).toBe((100 + 2 + 30 + 1 + 20) * 10);
  });

  it('reads nothing from text that is not /proc/stat', () => {
    expect(parseBusyMs('intr 1 2 3\n')).toBeUndefined();
    expect(parseBusyMs('cpu  a b c\n')).toBeUndefined();
  });
});
