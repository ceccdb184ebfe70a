-- Reentrant acquire (Redisson's hash lock): field = owner id, value = hold count.
-- KEYS[1] lock key (hash)
-- ARGV[1] owner id (replica id : flow id)
-- ARGV[2] lease in ms, (re)applied on every successful acquire
-- returns nil when acquired (or re-entered); otherwise the holder's remaining PTTL in ms
--         (-1 when the key has no expiry), so the caller knows how long to wait at most;
--         a lock of another kind (a string lock left by another strategy) counts as held
local lockKey = KEYS[1]
local owner = ARGV[1]
local leaseMs = tonumber(ARGV[2])

local kind = redis.call('type', lockKey)['ok']
if kind == 'none' or (kind == 'hash' and redis.call('hexists', lockKey, owner) == 1) then
  redis.call('hincrby', lockKey, owner, 1)
  redis.call('pexpire', lockKey, leaseMs)
  return nil
end
return redis.call('pttl', lockKey)
