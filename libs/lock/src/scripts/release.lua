-- Fair release: one hold fewer (a reentrant lock keeps its nested holds); the last deletes the
-- lock and wakes the process at the front of the queue on its own channel, in the same script,
-- so release and wake-up are atomic. The woken front takes the lock with acquire.lua.
-- KEYS[1] lock (string: owner value; hash: owner -> hold count)
-- KEYS[2] queue (list of process tags, oldest first)
-- ARGV[1] owner value    ARGV[2] 'string' or 'hash'    ARGV[3] lease in ms, kept while holds remain
-- ARGV[4] wake-up channel prefix: the front's shard channel is prefix .. tag
-- returns 1 released, 0 still held (nested holds remain), -1 not ours: nothing changed
local lockKey, queueKey = KEYS[1], KEYS[2]
local owner, hash, leaseMs, wakePrefix = ARGV[1], ARGV[2] == 'hash', tonumber(ARGV[3]), ARGV[4]

-- pcall: a lock of the other kind answers an error, which is not our owner value either.
if hash then
  if redis.pcall('hexists', lockKey, owner) ~= 1 then return -1 end
  if redis.call('hincrby', lockKey, owner, -1) > 0 then
    redis.call('pexpire', lockKey, leaseMs)
    return 0
  end
elseif redis.pcall('get', lockKey) ~= owner then
  return -1
end
redis.call('del', lockKey)
local front = redis.call('lindex', queueKey, 0)
if front then redis.call('spublish', wakePrefix .. front, 'released') end
return 1
