-- stock-void: after a coupon's reset, drop its counter and reservations and start a new generation,
-- so a load that read the stock before the reset cannot set the counter from it (see stock-load-at).
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its reservations
-- KEYS[3]  its reset generation
-- Returns  the new generation.
local stock = KEYS[1]
local reservations = KEYS[2]
local generation = KEYS[3]

redis.call('DEL', stock, reservations)
return redis.call('INCR', generation)
