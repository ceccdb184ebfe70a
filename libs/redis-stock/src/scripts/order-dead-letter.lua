-- order-dead-letter: count a failure that belongs to an order itself (the database refused it, its
-- own statement failed, or its entry is malformed); at `limit` failures give the order up, once.
-- The one way an accepted order is given up. The caller holds the order's delivery: its statement
-- has ended, and it asked the database whether the order holds a grant (then it acknowledges,
-- never calls this).
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its counter epoch (the database's epoch the counter was loaded in)
-- KEYS[3]  its buyers, a hash userId -> orderId
-- KEYS[4]  its order stream
-- KEYS[5]  its dead-letter stream
-- KEYS[6]  its failures, a hash orderId -> failures counted so far
-- KEYS[7]  its dead buyers, a hash userId -> {"orderId":…,"reason":…}
-- ARGV[1]  the persisters' consumer group
-- ARGV[2]  the calling persister (consumer)
-- ARGV[3]  the orderId
-- ARGV[4]  the failures that give it up
-- ARGV[5]  why it failed (kept with the dead letter, told to the buyer)
-- ARGV[6]  why the database refused it: 'superseded', 'sold-out', 'duplicate', or '' (its own
--          statement failed, or its entry is malformed)
-- Returns  1 when given up: acknowledged, copied to the dead letters with its reason, deleted from
--            the stream, its buyer recorded as a dead buyer. When its buyer still maps to it, the
--            buyer is forgotten, but for a duplicate: that user holds a grant, so the buyer stays,
--            mapped to '0-0' (no order; the lookup finds the grant), and is never accepted again.
--            Its unit goes back to the counter only when the order took it from this very counter
--            (its entry's epoch is the counter's, its buyer still maps to it), and never when
--            superseded or sold out. A superseded order's counter of a later epoch was loaded from a
--            stock of record that never counted it; when the counter is still in that order's
--            epoch, the counter is older than the database's (a reset that never reached Redis): it
--            is dropped, so the next grab loads one in the current epoch. A sold-out refusal shows
--            the counter above the stock of record: keeping the unit takes that phantom unit out;
--          0 when counted, below the limit: it stays pending, retried after the idle time;
--         -1 when the caller no longer holds its delivery (acknowledged, or reclaimed by another
--            persister whose statement may be running): nothing changes.
local stock = KEYS[1]
local epoch = KEYS[2]
local buyers = KEYS[3]
local orders = KEYS[4]
local dead = KEYS[5]
local failures = KEYS[6]
local deadBuyers = KEYS[7]
local group = ARGV[1]
local consumer = ARGV[2]
local orderId = ARGV[3]
local limit = tonumber(ARGV[4])
local reason = ARGV[5]
local refusal = ARGV[6]
local superseded = refusal == 'superseded'

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
local user, orderEpoch
for i = 1, #fields, 2 do
  if fields[i] == 'user' then
    user = fields[i + 1]
  elseif fields[i] == 'epoch' then
    orderEpoch = fields[i + 1]
  end
end
local counterEpoch = redis.call('GET', epoch)
local sameEpoch = orderEpoch ~= nil and counterEpoch == orderEpoch
if user then
  if redis.call('HGET', buyers, user) == orderId then
    if refusal == 'duplicate' then
      redis.call('HSET', buyers, user, '0-0')
    else
      redis.call('HDEL', buyers, user)
    end
    if not superseded and refusal ~= 'sold-out' and sameEpoch and redis.call('EXISTS', stock) == 1 then
      redis.call('INCR', stock)
    end
  end
  redis.call('HSET', deadBuyers, user, cjson.encode({ orderId = orderId, reason = reason }))
end
if superseded and sameEpoch then
  redis.call('DEL', stock, epoch)
end
return 1
