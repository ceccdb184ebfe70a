-- Reentrant release: one hold fewer; the last one deletes the lock and wakes the waiters,
-- in the same script so release and wake-up are atomic.
-- KEYS[1] lock key (hash)
-- KEYS[2] wake-up shard channel (SPUBLISH: it shares the lock's hash tag, so its slot)
-- ARGV[1] owner id
-- ARGV[2] lease in ms, re-applied while holds remain
-- returns 1 released (deleted), 0 still held by this owner (count > 0), -1 not held by this owner
local lockKey = KEYS[1]
local wakeChannel = KEYS[2]
local owner = ARGV[1]
local leaseMs = tonumber(ARGV[2])

if redis.call('type', lockKey)['ok'] ~= 'hash' or redis.call('hexists', lockKey, owner) == 0 then
  return -1
end
local remaining = redis.call('hincrby', lockKey, owner, -1)
if remaining > 0 then
  redis.call('pexpire', lockKey, leaseMs)
  return 0
end
redis.call('del', lockKey)
redis.call('spublish', wakeChannel, 'released')
return 1
