import { RenewalSchedule } from './renewal-schedule';

describe('RenewalSchedule', () => {
  it('makes each entry due one interval after it was added, then every interval', () => {
    const schedule = new RenewalSchedule();
    schedule.add('a', 100, 0);
    schedule.add('b', 30, 0);
    expect(schedule.nextDueAt()).toBe(30);
    expect(schedule.takeDue(29)).toEqual([]);
    expect(schedule.takeDue(30)).toEqual(['b']);
    expect(schedule.nextDueAt()).toBe(60);
    expect(schedule.takeDue(100).sort()).toEqual(['a', 'b']);
    expect(schedule.nextDueAt()).toBe(130);
  });

  it('reschedules from the time it ran, so a late tick does not fire a burst', () => {
    const schedule = new RenewalSchedule();
    schedule.add('a', 10, 0);
    expect(schedule.takeDue(55)).toEqual(['a']);
    expect(schedule.takeDue(55)).toEqual([]);
    expect(schedule.nextDueAt()).toBe(65);
  });

  it('forgets removed entries', () => {
    const schedule = new RenewalSchedule();
    schedule.add('a', 10, 0);
    schedule.remove('a');
    expect(schedule.nextDueAt()).toBeUndefined();
    expect(schedule.takeDue(100)).toEqual([]);
  });
});
