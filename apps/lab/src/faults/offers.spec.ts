import { FAULT_NAMES } from '@app/contract';
import { FAULTS } from './faults';
import { assertOffered, offer } from './offers';

const stack = { chaos: true, control: true, servers: true };
const compose = { chaos: true, control: false, servers: false };

describe('offer', () => {
  it('offers everything on the local stack with chaos on', () => {
    expect(FAULTS.map((f) => offer(f.uses, stack).available)).toEqual(FAULTS.map(() => true));
  });

  it('under docker-compose offers only the faults that need no control endpoint, and says why', () => {
    const offered = FAULTS.filter((f) => offer(f.uses, compose).available).map((f) => f.name);
    expect(offered).toEqual(['pause-holder', 'freeze-replica', 'crash-replica']);
    expect(offer(['chaos', 'fault', 'control'], compose).reason).toContain('docker-compose');
    expect(offer(['fault', 'servers'], compose).reason).toContain('Redis servers of its own');
  });

  it('with chaos off offers no fault, and says so first', () => {
    const off = { ...stack, chaos: false };
    expect(FAULTS.filter((f) => offer(f.uses, off).available)).toEqual([]);
    expect(offer(['chaos', 'control'], { ...compose, chaos: false }).reason).toContain('CHAOS_ENABLED=false');
    expect(offer([], { chaos: false, control: false, servers: false })).toEqual({ available: true });
  });

  it('refuses with 403 CHAOS.DISABLED, else 409 LAB.UNAVAILABLE', () => {
    expect(() => assertOffered('the fault kill-replica', ['chaos', 'control'], { ...stack, chaos: false })).toThrow(
      expect.objectContaining({ code: 'CHAOS.DISABLED' }) as Error,
    );
    expect(() => assertOffered('the fault kill-replica', ['chaos', 'control'], compose)).toThrow(
      expect.objectContaining({ code: 'LAB.UNAVAILABLE' }) as Error,
    );
  });

  it('has one fault per contract name, each needing the token', () => {
    expect(FAULTS.map((f) => f.name)).toEqual([...FAULT_NAMES]);
    expect(FAULTS.every((f) => f.uses.includes('fault') && f.uses.includes('chaos'))).toBe(true);
  });
});
