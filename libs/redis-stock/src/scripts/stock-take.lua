-- stock-take: reserve one unit of a coupon's stock in Redis, and record the reservation.
-- KEYS[1]  the coupon's stock counter, e.g. stock:{coupon:42}
-- KEYS[2]  its reservations, a sorted set of reservation id -> deadline (ms, Redis clock)
-- ARGV[1]  the reservation id: "<userId>|<nonce>"
-- ARGV[2]  how long the reservation may stay unpersisted before reconciliation may return it (ms)
-- Returns  the units left after this one (>= 0) when reserved,
--          -1 when the counter is at zero (sold out),
--          -2 when the counter is not loaded (the caller loads it from the database and retries).
local stock = KEYS[1]
local reservations = KEYS[2]
local id = ARGV[1]
local leaseMs = tonumber(ARGV[2])

local left = redis.call('GET', stock)
if not left then
  return -2
end
if tonumber(left) <= 0 then
  return -1
end
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', reservations, nowMs + leaseMs, id)
return redis.call('DECR', stock)
