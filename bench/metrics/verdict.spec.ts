import type { Audit } from '../types';
import { verdict } from './verdict';

const clean: Audit = { initialStock: 100, stock: 0, grants: 100, oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1 };

describe('verdict', () => {
  it('is correct with no oversell, no lost update and one holder', () => {
    expect(verdict(clean, true)).toEqual({ correct: true, flags: [], label: 'correct' });
  });

  it('names every failure at once', () => {
    const v = verdict(
      { ...clean, grants: 130, stock: 40, oversold: 30, lostUpdates: 70, maxConcurrentHolders: 3 },
      true,
    );
    expect(v.correct).toBe(false);
    expect(v.flags).toEqual(['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS']);
    expect(v.label).toBe('OVERSOLD + LOST UPDATES + TWO HOLDERS');
  });

  it('reports lost updates without oversell (stock not yet exhausted)', () => {
    expect(verdict({ ...clean, grants: 60, stock: 70, lostUpdates: 30 }, true).label).toBe('LOST UPDATES');
  });

  it('counts overlapping holders only against strategies that promise exclusion', () => {
    const overlapping = { ...clean, maxConcurrentHolders: 4 };
    expect(verdict(overlapping, true).label).toBe('TWO HOLDERS');
    expect(verdict(overlapping, false).correct).toBe(true);
  });
});
