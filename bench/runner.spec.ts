import type { ApiClient } from '@app/contract';
import { resolveStrategies } from './runner';

describe('resolveStrategies', () => {
  const api = {
    strategies: () => Promise.resolve([{ name: 'none' }, { name: 'setnx' }, { name: 'redis-lua' }]),
  } as unknown as Pick<ApiClient, 'strategies'>;

  it('takes every strategy the API lists, newcomers included, when none is asked for', async () => {
    expect(await resolveStrategies(api, [])).toEqual(['none', 'setnx', 'redis-lua']);
  });

  it('keeps the asked order and refuses names the API does not list', async () => {
    expect(await resolveStrategies(api, ['setnx', 'none'])).toEqual(['setnx', 'none']);
    await expect(resolveStrategies(api, ['setnx', 'sentx'])).rejects.toThrow(
      'unknown strategies: sentx (the API lists: none, setnx, redis-lua)',
    );
  });

  it('returns a copy, not the caller’s list', async () => {
    const requested = ['none'];
    const resolved = await resolveStrategies(api, requested);
    resolved.push('setnx');
    expect(requested).toEqual(['none']);
  });
});
