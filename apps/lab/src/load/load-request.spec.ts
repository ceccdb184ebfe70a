import { parseFaultTarget, parseLoadRequest } from './load-request';

const strategies = ['none', 'watchdog'];
const good = { strategy: 'none', stock: 20, buyers: 60, workMs: 20 };

describe('parseLoadRequest', () => {
  it('takes a well-formed load', () => {
    expect(parseLoadRequest(good, strategies)).toEqual(good);
  });

  it('takes a load through a room', () => {
    const roomed = { ...good, room: { admitPerSec: 50 } };
    expect(parseLoadRequest(roomed, strategies)).toEqual(roomed);
  });

  it.each([
    ['not an object', 'x', 'JSON object'],
    ['an array', [good], 'JSON object'],
    ['null', null, 'JSON object'],
    ['an unknown strategy', { ...good, strategy: 'nope' }, 'strategy must be one of none, watchdog'],
    ['a strategy that is not a string', { ...good, strategy: 1 }, 'strategy'],
    ['stock 0', { ...good, stock: 0 }, 'stock must be an integer from 1 to 10000'],
    ['a fractional stock', { ...good, stock: 1.5 }, 'stock'],
    ['stock as text', { ...good, stock: '20' }, 'stock'],
    ['too many buyers', { ...good, buyers: 2001 }, 'buyers must be an integer from 1 to 2000'],
    ['negative work', { ...good, workMs: -1 }, 'workMs'],
    ['work beyond the API range', { ...good, workMs: 5001 }, 'workMs'],
    ['a missing field', { strategy: 'none', stock: 1, buyers: 1 }, 'workMs'],
    ['an extra field', { ...good, pauseMs: 10 }, 'unknown field(s): pauseMs'],
    ['a room that is not an object', { ...good, room: 50 }, 'room must be a JSON object'],
    ['a room without its pace', { ...good, room: {} }, 'admitPerSec must be an integer from 1 to 100000'],
    ['a room admitting none', { ...good, room: { admitPerSec: 0 } }, 'admitPerSec'],
    [
      'a room with its window',
      { ...good, room: { admitPerSec: 5, windowMs: 1000 } },
      'unknown room field(s): windowMs',
    ],
  ])('refuses %s', (_what, body, message) => {
    expect(() => parseLoadRequest(body, strategies)).toThrow(
      expect.objectContaining({
        code: 'REQUEST.INVALID',
        message: expect.stringContaining(message) as string,
      }) as Error,
    );
  });
});

describe('parseFaultTarget', () => {
  it('takes no body, an empty one, or a known replica', () => {
    expect(parseFaultTarget(undefined, ['api-1'])).toBeUndefined();
    expect(parseFaultTarget({}, ['api-1'])).toBeUndefined();
    expect(parseFaultTarget({ replica: 'api-1' }, ['api-1'])).toBe('api-1');
  });

  it('refuses an unknown replica or field', () => {
    expect(() => parseFaultTarget({ replica: 'api-9' }, ['api-1'])).toThrow('replica must be one of api-1');
    expect(() => parseFaultTarget({ replica: 'api-1', x: 1 }, ['api-1'])).toThrow('unknown field(s): x');
    expect(() => parseFaultTarget('api-1', ['api-1'])).toThrow('JSON object');
  });
});
