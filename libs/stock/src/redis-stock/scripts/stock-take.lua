-- stock-take: reserve one unit of a coupon's stock in Redis.
-- KEYS[1]  the coupon's stock counter, e.g. stock:{coupon:42}
-- Returns  the units left after this one (>= 0) when reserved,
--          -1 when the counter is at zero (sold out),
--          -2 when the counter is not loaded (the caller loads it from the database and retries).
local stock = KEYS[1]

local left = redis.call('GET', stock)
if not left then
  return -2
end
if tonumber(left) <= 0 then
  return -1
end
return redis.call('DECR', stock)
