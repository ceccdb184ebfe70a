-- stock-give-back: return a reserved unit whose grant could not be persisted.
-- KEYS[1]  the coupon's stock counter
-- Returns  the units left after the return, or -2 when the counter is gone (a reset or a Redis
--          restart dropped it; it will be reloaded from the database, which never lost the unit).
local stock = KEYS[1]

if redis.call('EXISTS', stock) == 0 then
  return -2
end
return redis.call('INCR', stock)
