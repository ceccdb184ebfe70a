-- stock-load-buyers: while loading a coupon's counter, record the users who hold a grant as buyers,
-- so none of them is accepted again (redis-stream refuses a buyer with -3).
-- KEYS[1]  the coupon's buyers, a hash userId -> orderId
-- KEYS[2]  its load claim
-- ARGV[1]  the loader's token
-- ARGV[2…] userId, orderId pairs
-- Returns  the pairs recorded, or -1 when the claim is no longer this loader's (nothing written).
local buyers = KEYS[1]
local claim = KEYS[2]
local token = ARGV[1]

if redis.call('GET', claim) ~= token then
  return -1
end
for i = 2, #ARGV, 2 do
  redis.call('HSET', buyers, ARGV[i], ARGV[i + 1])
end
return (#ARGV - 1) / 2
