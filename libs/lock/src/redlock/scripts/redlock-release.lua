-- Compare-and-delete on one Redlock node: only the owner that wrote the key may remove it, so a
-- holder whose lease ran out never deletes the lock a newer holder took meanwhile.
-- KEYS[1]  the lock key, e.g. lock:{coupon:42}
-- ARGV[1]  the owner value this holder wrote with SET NX PX
-- returns  1 when the key held this owner and was deleted, 0 when absent or held by another
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
