-- Fenced hand-off: like owner-handoff.lua, and the waiter taking over draws the next fencing
-- token, so every holder (handed the lock or not) writes with a token greater than the last.
-- KEYS[1] lock key (string: owner value)
-- KEYS[2] fence counter (never expires; seeded from the clock)
-- ARGV[1] owner value of the caller (the current holder)
-- ARGV[2] owner value of the waiter taking over
-- ARGV[3] the waiter's lease in ms
-- returns the waiter's token (>= 1) when handed off; 0 when the lock is not ours: nothing changed
local lockKey = KEYS[1]
local fenceKey = KEYS[2]
local owner = ARGV[1]
local nextOwner = ARGV[2]
local leaseMs = ARGV[3]

if redis.call('type', lockKey)['ok'] ~= 'string' or redis.call('get', lockKey) ~= owner then
  return 0
end
redis.call('set', lockKey, nextOwner, 'PX', leaseMs)
-- A lost counter starts again from Redis's clock in microseconds, as in fenced-acquire.lua.
if redis.call('exists', fenceKey) == 0 then
  local now = redis.call('time')
  redis.call('set', fenceKey, now[1] .. string.format('%06d', tonumber(now[2])))
end
return redis.call('incr', fenceKey)
