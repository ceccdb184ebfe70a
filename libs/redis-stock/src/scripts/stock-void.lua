-- stock-void: after a coupon's reset, drop its counter, epoch, reservations, buyers, given-up
-- buyers (a lookup in the new sale tells only of orders given up since) and load claim
-- (a load that claimed before cannot set the counter: see stock-load-epoch), and start a new
-- generation (a reconciliation that read before cannot set it either: see stock-reconcile). The
-- order streams stay: their orders are of the epoch before the reset, which the database refuses,
-- and persisters give them up with that reason.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its reservations
-- KEYS[3]  its reset generation
-- KEYS[4]  its counter epoch
-- KEYS[5]  its load claim
-- KEYS[6]  its buyers
-- KEYS[7]  its dead buyers (orders given up)
-- Returns  the new generation.
local stock = KEYS[1]
local reservations = KEYS[2]
local generation = KEYS[3]
local epoch = KEYS[4]
local claim = KEYS[5]
local buyers = KEYS[6]
local deadBuyers = KEYS[7]

redis.call('DEL', stock, reservations, epoch, claim, buyers, deadBuyers)
return redis.call('INCR', generation)
