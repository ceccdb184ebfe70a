-- order-lookup: what became of a user's order of a coupon, when it is not a grant (yet).
-- KEYS[1]  the coupon's buyers, a hash userId -> orderId
-- KEYS[2]  its order stream
-- KEYS[3]  its dead buyers, a hash userId -> {"orderId":…,"reason":…} (given-up orders)
-- ARGV[1]  the userId
-- Returns  {'pending', orderId} while its entry is in the stream (accepted, not yet persisted);
--          {'dead-lettered', json} when its order was given up (moved to the dead letters);
--          false (nil) when neither: no order, or its entry persisted and gone.
local buyers = KEYS[1]
local orders = KEYS[2]
local deadBuyers = KEYS[3]
local user = ARGV[1]

local orderId = redis.call('HGET', buyers, user)
if orderId and #redis.call('XRANGE', orders, orderId, orderId) == 1 then
  return { 'pending', orderId }
end
local dead = redis.call('HGET', deadBuyers, user)
if dead then
  return { 'dead-lettered', dead }
end
return false
