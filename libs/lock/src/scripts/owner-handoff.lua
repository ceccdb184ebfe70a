-- Hand-off: the owner passes its lock straight to the next waiter of the same process, so the
-- lock is never free in between and nobody has to notice a release and ask again. No wake-up:
-- the lock stays taken.
-- KEYS[1] lock key (string: owner value)
-- ARGV[1] owner value of the caller (the current holder)
-- ARGV[2] owner value of the waiter taking over
-- ARGV[3] the waiter's lease in ms; 0 for a lock without expiry (setnx)
-- returns 1 handed off, 0 not ours (expired, or held by someone else): nothing changed
local lockKey = KEYS[1]
local owner = ARGV[1]
local nextOwner = ARGV[2]
local leaseMs = tonumber(ARGV[3])

if redis.call('type', lockKey)['ok'] ~= 'string' or redis.call('get', lockKey) ~= owner then
  return 0
end
if leaseMs > 0 then
  redis.call('set', lockKey, nextOwner, 'PX', leaseMs)
else
  redis.call('set', lockKey, nextOwner)
end
return 1
