-- Renewal (the watchdog): extend the lease only while the lock is still ours.
-- KEYS[1] lock key (hash)
-- ARGV[1] owner id
-- ARGV[2] lease in ms
-- returns 1 renewed, 0 not ours any more (expired or taken): the holder has lost the lock
local lockKey = KEYS[1]
local owner = ARGV[1]
local leaseMs = tonumber(ARGV[2])

if redis.call('type', lockKey)['ok'] ~= 'hash' or redis.call('hexists', lockKey, owner) == 0 then
  return 0
end
redis.call('pexpire', lockKey, leaseMs)
return 1
