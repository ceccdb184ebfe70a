import { RequestInvalidError } from '@app/apps-common';
import { HoldCallBodyPipe, HoldIdPipe, holdQueryPipe, OpenHoldBodyPipe } from './hold-request.pipe';

describe('the holds request pipes', () => {
  const open = new OpenHoldBodyPipe();

  it('takes a userId and a holdMs in range, defaulting holdMs to a minute', () => {
    expect(open.transform({ userId: 'u-1' })).toEqual({ userId: 'u-1', holdMs: 60_000 });
    expect(open.transform({ userId: 'u-1', holdMs: 100 })).toEqual({ userId: 'u-1', holdMs: 100 });
    expect(open.transform({ userId: 'u-1', holdMs: 3_600_000 })).toEqual({ userId: 'u-1', holdMs: 3_600_000 });
  });

  it.each([
    ['no body', undefined],
    ['an array', [1]],
    ['no userId', { holdMs: 500 }],
    ['a bad userId', { userId: 'a b' }],
    ['holdMs under 100', { userId: 'u', holdMs: 99 }],
    ['holdMs over an hour', { userId: 'u', holdMs: 3_600_001 }],
    ['holdMs as text', { userId: 'u', holdMs: '500' }],
    ['holdMs fractional', { userId: 'u', holdMs: 100.5 }],
    ['an unknown property', { userId: 'u', price: 1 }],
  ])('refuses %s when a hold is opened', (_, body) => {
    expect(() => open.transform(body)).toThrow(RequestInvalidError);
  });

  it('takes no body, or only the buyer, on a confirm or cancel', () => {
    const call = new HoldCallBodyPipe();
    expect(call.transform(undefined)).toEqual({});
    expect(call.transform({})).toEqual({});
    expect(call.transform({ userId: 'u' })).toEqual({ userId: 'u' });
    expect(() => call.transform({ userId: '' })).toThrow(RequestInvalidError);
    expect(() => call.transform({ pay: true })).toThrow(RequestInvalidError);
    expect(() => call.transform('u')).toThrow(RequestInvalidError);
  });

  it('takes hold ids of plain digits only', () => {
    const id = new HoldIdPipe();
    expect(id.transform('42')).toBe('42');
    for (const bad of ['0', '-1', '1e3', '01', 'abc', '1'.repeat(19)]) expect(() => id.transform(bad)).toThrow();
  });

  it('takes each chaos option where it belongs, and nothing else', () => {
    expect(holdQueryPipe('holds').transform({ holds: 'naive' })).toEqual({ holds: 'naive' });
    expect(holdQueryPipe('raceExpiry').transform({ raceExpiry: '1' })).toEqual({ raceExpiry: true });
    expect(holdQueryPipe().transform({})).toEqual({});
    expect(() => holdQueryPipe('holds').transform({ holds: 'exact' })).toThrow(RequestInvalidError);
    expect(() => holdQueryPipe('holds').transform({ raceExpiry: '1' })).toThrow(RequestInvalidError);
    expect(() => holdQueryPipe().transform({ raceExpiry: '1' })).toThrow(RequestInvalidError);
  });
});
