-- Hand-off on one Redlock node: the holder passes its key straight to the next waiter of its
-- process, so the lock is never free between the two and nobody has to notice and ask again.
-- The taker holds the lock only where a majority of nodes did this within the lease.
-- KEYS[1]  the lock key, e.g. lock:{coupon:42}
-- ARGV[1]  the owner value of the holder
-- ARGV[2]  the owner value of the waiter taking over
-- ARGV[3]  the waiter's lease in ms
-- returns  1 when the key held the holder's value and now holds the waiter's, 0 otherwise
local key = KEYS[1]
local owner = ARGV[1]
local nextOwner = ARGV[2]
local leaseMs = ARGV[3]
if redis.call('GET', key) == owner then
  redis.call('SET', key, nextOwner, 'PX', leaseMs)
  return 1
end
return 0
