-- stock-load-at: set a coupon's counter from the database, unless another process loaded it first
-- or a reset came between reading the stock and this call.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  the coupon's reset generation (stock-void increments it; absent: 0)
-- ARGV[1]  the stock the database held when read
-- ARGV[2]  the generation read before that stock was read
-- Returns  1 when this call loaded it, 0 when it was already loaded,
--          -1 when a reset came since (the stock read may be from before it: read again).
local stock = KEYS[1]
local generation = KEYS[2]
local fromDatabase = ARGV[1]
local readAt = ARGV[2]

if (redis.call('GET', generation) or '0') ~= readAt then
  return -1
end
if redis.call('SET', stock, fromDatabase, 'NX') then
  return 1
end
return 0
