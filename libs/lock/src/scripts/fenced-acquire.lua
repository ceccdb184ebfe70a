-- Fenced acquire: SET NX PX with a random owner and, in the same step, the next fencing token.
-- KEYS[1] lock key (string: owner value)
-- KEYS[2] fence counter (never expires, so tokens strictly increase; seeded from the clock)
-- ARGV[1] owner value
-- ARGV[2] lease in ms
-- returns {1, token} when acquired; {0, pttl} otherwise (the holder's remaining ms, -1 no expiry)
local lockKey = KEYS[1]
local fenceKey = KEYS[2]
local owner = ARGV[1]
local leaseMs = ARGV[2]

if redis.call('set', lockKey, owner, 'NX', 'PX', leaseMs) then
  -- A counter lost with Redis's data (a restart without persistence, a failover) starts again from
  -- Redis's clock in microseconds, above every token drawn since the last seeding (fewer than one a
  -- microsecond), so the store does not refuse every holder after it. The first seeding is the same.
  if redis.call('exists', fenceKey) == 0 then
    local now = redis.call('time')
    redis.call('set', fenceKey, now[1] .. string.format('%06d', tonumber(now[2])))
  end
  return {1, redis.call('incr', fenceKey)}
end
return {0, redis.call('pttl', lockKey)}
