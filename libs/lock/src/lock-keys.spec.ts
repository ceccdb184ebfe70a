import { lockKeys, wakeChannel } from './lock-keys';

/** The part of a key Redis Cluster hashes: the first {…} with something inside. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('lockKeys', () => {
  it("names a lock's keys under one hash tag, so one script may touch them all in a cluster", () => {
    const keys = lockKeys('coupon:42');
    expect(keys).toEqual({
      resource: 'coupon:42',
      lock: 'lock:{coupon:42}',
      fence: 'lock:{coupon:42}:fence',
      queue: 'lock:{coupon:42}:queue',
      heartbeats: 'lock:{coupon:42}:heartbeats',
      wakePrefix: 'lock:{coupon:42}:wake:',
    });
    const all = [keys.lock, keys.fence, keys.queue, keys.heartbeats, wakeChannel(keys, 'p1')];
    expect(new Set(all.map(hashTag))).toEqual(new Set(['coupon:42']));
  });

  it("builds a resource's keys and channels once while it is in use, and still tells resources and processes apart", () => {
    expect(lockKeys('coupon:7')).toBe(lockKeys('coupon:7'));
    expect(lockKeys('coupon:8').lock).toBe('lock:{coupon:8}');
    const keys = lockKeys('coupon:7');
    expect(wakeChannel(keys, 'p1')).toBe('lock:{coupon:7}:wake:p1');
    expect(wakeChannel(keys, 'p2')).toBe('lock:{coupon:7}:wake:p2');
    expect(wakeChannel(lockKeys('coupon:8'), 'p1')).toBe('lock:{coupon:8}:wake:p1');
    for (let i = 0; i < 300; i++) lockKeys(`coupon:many:${i}`); // past the cache: the oldest make way
    expect(lockKeys('coupon:many:299').lock).toBe('lock:{coupon:many:299}');
    expect(lockKeys('coupon:many:0').lock).toBe('lock:{coupon:many:0}');
  });

  it('gives each segment a tag of its own, so segment locks spread over the cluster', () => {
    const tags = [1, 2, 3].map((seg) => hashTag(lockKeys(`coupon:42:seg:${seg}`).lock));
    expect(tags).toEqual(['coupon:42:seg:1', 'coupon:42:seg:2', 'coupon:42:seg:3']);
    expect(tags).not.toContain(hashTag(lockKeys('coupon:42').lock));
  });
});
