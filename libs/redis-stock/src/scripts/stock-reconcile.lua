-- stock-reconcile: set a coupon's counter to the stock of record, only while nothing moves.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its reservations (reservation id -> deadline)
-- KEYS[3]  its order stream (redis-stream's orders taken from the counter, not yet in the database)
-- KEYS[4]  its reset generation (stock-void increments it; absent: 0)
-- ARGV[1]  the counter as the caller saw it before reading the database ('' when missing)
-- ARGV[2]  the generation the caller saw with it
-- ARGV[3]  the database's stock, read after that
-- Returns  1 when the counter was set;
--          0 when it already held that value;
--          -1 when a reservation or an order is in flight, or the counter moved or a reset came
--             since ARGV[1] and ARGV[2] were read (busy: left alone);
--          -2 when the counter is not loaded (the next grab loads it from the database).
local stock = KEYS[1]
local reservations = KEYS[2]
local orders = KEYS[3]
local generation = KEYS[4]
local seen = ARGV[1]
local generationSeen = ARGV[2]
local ofRecord = ARGV[3]

if redis.call('ZCARD', reservations) > 0 or redis.call('XLEN', orders) > 0 then
  return -1
end
if (redis.call('GET', generation) or '0') ~= generationSeen then
  return -1
end
local current = redis.call('GET', stock)
if (current or '') ~= seen then
  return -1
end
if not current then
  return -2
end
if current == ofRecord then
  return 0
end
redis.call('SET', stock, ofRecord)
return 1
