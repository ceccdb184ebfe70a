-- stock-reconcile: set a coupon's counter to the stock of record, only while nothing moves.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its reservations (reservation id -> deadline)
-- ARGV[1]  the counter as the caller saw it before reading the database ('' when missing)
-- ARGV[2]  the database's stock, read after that
-- Returns  1 when the counter was set;
--          0 when it already held that value;
--          -1 when a reservation is in flight or the counter moved since ARGV[1] (busy: left alone);
--          -2 when the counter is not loaded (the next grab loads it from the database).
local stock = KEYS[1]
local reservations = KEYS[2]
local seen = ARGV[1]
local ofRecord = ARGV[2]

if redis.call('ZCARD', reservations) > 0 then
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
