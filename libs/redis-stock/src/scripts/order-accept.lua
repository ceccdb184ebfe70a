-- order-accept: accept one order of a coupon in one step (redis-stream): no lock, no database.
-- KEYS[1]  the coupon's stock counter, e.g. stock:{coupon:42} (redis-lua's, loaded the same way)
-- KEYS[2]  its counter epoch (the database's epoch the counter was loaded in)
-- KEYS[3]  its load claim (held while the counter is loaded, or while a reset runs)
-- KEYS[4]  its buyers, a hash userId -> orderId
-- KEYS[5]  its order stream (entries: user, replica, acceptedUs, epoch, and crash when asked)
-- ARGV[1]  the userId
-- ARGV[2]  the accepting replica
-- ARGV[3]  a crash point for the persister that takes the order ('' for none; chaos only)
-- Returns  {units left, orderId} when accepted: the unit is taken, the buyer recorded, the order
--          appended with the counter's epoch, all or nothing;
--          -1 when the counter is at zero (sold out);
--          -2 when the counter or its epoch is not loaded, or a load or a reset holds the claim
--             (the caller loads the counter, or waits for it, and retries);
--          -3 when the user already has an order of this coupon, or a grant (duplicate).
local stock = KEYS[1]
local epoch = KEYS[2]
local claim = KEYS[3]
local buyers = KEYS[4]
local orders = KEYS[5]
local user = ARGV[1]
local replica = ARGV[2]
local crash = ARGV[3]

local left = redis.call('GET', stock)
local loadedEpoch = redis.call('GET', epoch)
if not left or not loadedEpoch or redis.call('EXISTS', claim) == 1 then
  return -2
end
if redis.call('HEXISTS', buyers, user) == 1 then
  return -3
end
if tonumber(left) <= 0 then
  return -1
end
-- Redis's clock at acceptance, in µs: the start of the accept-to-durable latency.
local now = redis.call('TIME')
local acceptedUs = now[1] .. string.format('%06d', tonumber(now[2]))
local orderId
if crash == '' then
  orderId = redis.call('XADD', orders, '*', 'user', user, 'replica', replica, 'acceptedUs', acceptedUs,
    'epoch', loadedEpoch)
else
  orderId = redis.call('XADD', orders, '*', 'user', user, 'replica', replica, 'acceptedUs', acceptedUs,
    'epoch', loadedEpoch, 'crash', crash)
end
redis.call('HSET', buyers, user, orderId)
return { redis.call('DECR', stock), orderId }
