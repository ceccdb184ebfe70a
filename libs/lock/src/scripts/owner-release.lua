-- Compare-and-delete: release the lock only if we still own it, and wake the waiters.
-- KEYS[1] lock key (string: owner value)
-- KEYS[2] wake-up shard channel (SPUBLISH: it shares the lock's hash tag, so its slot)
-- ARGV[1] owner value of the caller
-- returns 1 released, 0 not ours (expired, or held by someone else): nothing deleted
local lockKey = KEYS[1]
local wakeChannel = KEYS[2]
local owner = ARGV[1]

if redis.call('type', lockKey)['ok'] ~= 'string' or redis.call('get', lockKey) ~= owner then
  return 0
end
redis.call('del', lockKey)
redis.call('spublish', wakeChannel, 'released')
return 1
