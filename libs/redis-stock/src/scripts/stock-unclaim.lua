-- stock-unclaim: release a load claim that is still the caller's (its load failed, or a reset
-- changed nothing), so the next loader need not wait for it to lapse.
-- KEYS[1]  the coupon's load claim
-- ARGV[1]  the caller's token
-- Returns  1 when released, 0 when it was not the caller's (lapsed, or taken over).
local claim = KEYS[1]
local token = ARGV[1]

if redis.call('GET', claim) == token then
  return redis.call('DEL', claim)
end
return 0
