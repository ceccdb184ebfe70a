-- order-dead-letter: count a failure that belongs to an order itself (the database refused it, its
-- own statement failed, or its entry is malformed); at `limit` failures give the order up, once.
-- The caller holds the order's delivery: its statement has ended, and it asked the database
-- whether the order holds a grant (then it acknowledges, never calls this).
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its buyers, a hash userId -> orderId
-- KEYS[3]  its order stream
-- KEYS[4]  its dead-letter stream
-- KEYS[5]  its failures, a hash orderId -> failures counted so far
-- KEYS[6]  its dead buyers, a hash userId -> {"orderId":…,"reason":…}
-- ARGV[1]  the persisters' consumer group
-- ARGV[2]  the calling persister (consumer)
-- ARGV[3]  the orderId
-- ARGV[4]  the failures that give it up
-- ARGV[5]  why it failed (kept with the dead letter, told to the buyer)
-- Returns  1 when given up: acknowledged, copied to the dead letters with its reason, deleted from
--            the stream, its buyer forgotten and its unit given back to the counter (when it took
--            one and the counter is loaded), so Redis's counter stays equal to the stock of record;
--          0 when counted, below the limit: it stays pending, retried after the idle time;
--         -1 when the caller no longer holds its delivery (acknowledged, or reclaimed by another
--            persister whose statement may be running): nothing changes.
local stock = KEYS[1]
local buyers = KEYS[2]
local orders = KEYS[3]
local dead = KEYS[4]
local failures = KEYS[5]
local deadBuyers = KEYS[6]
local group = ARGV[1]
local consumer = ARGV[2]
local orderId = ARGV[3]
local limit = tonumber(ARGV[4])
local reason = ARGV[5]

local pending = redis.call('XPENDING', orders, group, orderId, orderId, 1)
if #pending == 0 or pending[1][2] ~= consumer then
  return -1
end
local failed = redis.call('HINCRBY', failures, orderId, 1)
if failed < limit then
  return 0
end
redis.call('HDEL', failures, orderId)
redis.call('XACK', orders, group, orderId)
local entry = redis.call('XRANGE', orders, orderId, orderId)[1]
local fields = entry and entry[2] or {}
redis.call('XADD', dead, '*', 'orderId', orderId, 'reason', reason, 'failures', failed, unpack(fields))
redis.call('XDEL', orders, orderId)
for i = 1, #fields, 2 do
  if fields[i] == 'user' then
    local user = fields[i + 1]
    if redis.call('HGET', buyers, user) == orderId then
      redis.call('HDEL', buyers, user)
      if redis.call('EXISTS', stock) == 1 then
        redis.call('INCR', stock)
      end
    end
    redis.call('HSET', deadBuyers, user, cjson.encode({ orderId = orderId, reason = reason }))
  end
end
return 1
