-- Compare-and-delete on one Redlock node: only the owner that wrote the key may remove it,
-- so a holder whose lease ran out never deletes the lock a newer holder took meanwhile. A
-- release also wakes the waiters listening on the node (a hint: they retry at once instead of
-- sleeping out their backoff); giving back a minority after a lost attempt wakes nobody. The
-- message is the owner value, so a waiter listening on every node counts one release once.
-- KEYS[1]  the lock key, e.g. lock:{coupon:42}
-- ARGV[1]  the owner value this holder wrote with SET NX PX
-- ARGV[2]  the wake-up shard channel to publish on once deleted, '' for none
-- returns  1 when the key held this owner and was deleted, 0 when absent or held by another
local key = KEYS[1]
local owner = ARGV[1]
local wakeChannel = ARGV[2] or ''
if redis.call('GET', key) == owner then
  redis.call('DEL', key)
  if wakeChannel ~= '' then redis.call('SPUBLISH', wakeChannel, owner) end
  return 1
end
return 0
