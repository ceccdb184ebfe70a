-- order-give-up: move an order the database refused for good (accepted in an earlier counter
-- epoch: before a reset, or on a counter since reloaded) to the dead-letter stream, with the reason.
-- KEYS[1]  the coupon's order stream
-- KEYS[2]  its dead-letter stream
-- KEYS[3]  its buyers, a hash userId -> orderId
-- KEYS[4]  its stock counter
-- KEYS[5]  its counter epoch
-- ARGV[1]  the persisters' consumer group
-- ARGV[2]  the orderId
-- ARGV[3]  the reason
-- ARGV[4]  the epoch the order carries
-- Returns  1 when moved: acknowledged, copied to the dead letters, deleted from the stream and its
--            buyer forgotten. Its unit is not given back: the counter of the current epoch was
--            loaded from the stock of record, which never counted this order;
--          0 when it was not pending (acknowledged meanwhile, or moved by another persister).
-- A counter still in the order's epoch is older than the database's (a reset that never reached
-- Redis): it is dropped, so the next grab loads one in the current epoch.
local orders = KEYS[1]
local dead = KEYS[2]
local buyers = KEYS[3]
local stock = KEYS[4]
local epoch = KEYS[5]
local group = ARGV[1]
local orderId = ARGV[2]
local reason = ARGV[3]
local orderEpoch = ARGV[4]

if redis.call('XACK', orders, group, orderId) == 0 then
  return 0
end
local entry = redis.call('XRANGE', orders, orderId, orderId)[1]
local fields = entry and entry[2] or {}
redis.call('XADD', dead, '*', 'orderId', orderId, 'reason', reason, unpack(fields))
redis.call('XDEL', orders, orderId)
for i = 1, #fields, 2 do
  if fields[i] == 'user' and redis.call('HGET', buyers, fields[i + 1]) == orderId then
    redis.call('HDEL', buyers, fields[i + 1])
  end
end
if redis.call('GET', epoch) == orderEpoch then
  redis.call('DEL', stock, epoch)
end
return 1
