-- stock-give-back: return a reserved unit whose grant was not persisted, once.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its reservations (reservation id -> deadline)
-- ARGV[1]  the reservation id
-- Returns  the units left after the return;
--          -2 when the counter is gone (a reset or a Redis restart dropped it; it will be reloaded
--             from the database, which never lost the unit);
--          -3 when the reservation is not there (already returned, or settled): nothing changes.
local stock = KEYS[1]
local reservations = KEYS[2]
local id = ARGV[1]

if redis.call('ZREM', reservations, id) == 0 then
  return -3
end
if redis.call('EXISTS', stock) == 0 then
  return -2
end
return redis.call('INCR', stock)
