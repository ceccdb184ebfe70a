-- order-dead-letter: move an order that failed too often to the dead-letter stream, once.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its buyers, a hash userId -> orderId
-- KEYS[3]  its order stream
-- KEYS[4]  its dead-letter stream
-- ARGV[1]  the persisters' consumer group
-- ARGV[2]  the orderId
-- ARGV[3]  how many times it was delivered
-- Returns  1 when moved: acknowledged, copied to the dead letters, deleted from the stream, its
--            unit given back to the counter (when loaded) and its buyer forgotten (it was never
--            granted, so the counter stays equal to the stock of record);
--          0 when it was not pending (acknowledged meanwhile, or moved by another persister).
local stock = KEYS[1]
local buyers = KEYS[2]
local orders = KEYS[3]
local dead = KEYS[4]
local group = ARGV[1]
local orderId = ARGV[2]
local deliveries = ARGV[3]

if redis.call('XACK', orders, group, orderId) == 0 then
  return 0
end
local entry = redis.call('XRANGE', orders, orderId, orderId)[1]
local fields = entry and entry[2] or {}
redis.call('XADD', dead, '*', 'orderId', orderId, 'deliveries', deliveries, unpack(fields))
redis.call('XDEL', orders, orderId)
for i = 1, #fields, 2 do
  if fields[i] == 'user' and redis.call('HGET', buyers, fields[i + 1]) == orderId then
    redis.call('HDEL', buyers, fields[i + 1])
  end
end
if redis.call('EXISTS', stock) == 1 then
  redis.call('INCR', stock)
end
return 1
