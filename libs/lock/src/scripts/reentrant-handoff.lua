-- Hand-off of a reentrant lock: the owner's last hold passes straight to the next waiter of the
-- same process (see owner-handoff.lua). Only a single, outermost hold can be handed off.
-- KEYS[1] lock key (hash: owner id → hold count)
-- ARGV[1] owner id of the caller (the current holder)
-- ARGV[2] owner id of the waiter taking over
-- ARGV[3] the waiter's lease in ms
-- returns 1 handed off, 0 not ours, or ours with nested holds left: nothing changed
local lockKey = KEYS[1]
local owner = ARGV[1]
local nextOwner = ARGV[2]
local leaseMs = tonumber(ARGV[3])

if redis.call('type', lockKey)['ok'] ~= 'hash' or redis.call('hget', lockKey, owner) ~= '1'
    or redis.call('hlen', lockKey) ~= 1 then
  return 0
end
redis.call('del', lockKey)
redis.call('hset', lockKey, nextOwner, 1)
redis.call('pexpire', lockKey, leaseMs)
return 1
