-- order-pending: the order a user has waiting in a coupon's stream, if any.
-- KEYS[1]  the coupon's buyers, a hash userId -> orderId
-- KEYS[2]  its order stream
-- ARGV[1]  the userId
-- Returns  the orderId while its entry is in the stream (accepted, not yet persisted);
--          false (nil) when the user has no order, or its entry is gone (persisted, or dead-lettered).
local buyers = KEYS[1]
local orders = KEYS[2]
local user = ARGV[1]

local orderId = redis.call('HGET', buyers, user)
if not orderId then
  return false
end
if #redis.call('XRANGE', orders, orderId, orderId) == 0 then
  return false
end
return orderId
