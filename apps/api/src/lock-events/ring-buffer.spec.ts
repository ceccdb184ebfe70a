import { RingBuffer } from './ring-buffer';

describe('RingBuffer', () => {
  it('keeps every item, oldest first, until it is full', () => {
    const ring = new RingBuffer<number>(3);
    ring.push(1);
    ring.push(2);
    expect(ring.filter(() => true)).toEqual([1, 2]);
    expect(ring.size).toBe(2);
  });

  it('drops the oldest once full, and still reads oldest first however far it wrapped', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i += 1) ring.push(i);
    expect(ring.filter(() => true)).toEqual([5, 6, 7]);
    expect(ring.size).toBe(3);
    ring.push(8);
    expect(ring.filter(() => true)).toEqual([6, 7, 8]);
    expect(ring.filter((n) => n % 2 === 0)).toEqual([6, 8]);
  });

  it('refuses a capacity that could hold nothing', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});
