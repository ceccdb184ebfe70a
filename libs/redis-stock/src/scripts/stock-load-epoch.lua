-- stock-load-epoch: set a coupon's counter and its epoch from the database, as the claim's holder.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its counter epoch
-- KEYS[3]  its load claim
-- ARGV[1]  the stock read in the new epoch
-- ARGV[2]  the new epoch
-- ARGV[3]  the loader's token
-- Returns  1 when loaded (the claim released);
--          -1 when the claim is no longer this loader's: it lapsed and another took it, or a reset
--             took it over or voided it (the stock read may be from before the reset): nothing set.
local stock = KEYS[1]
local epoch = KEYS[2]
local claim = KEYS[3]
local fromDatabase = ARGV[1]
local newEpoch = ARGV[2]
local token = ARGV[3]

if redis.call('GET', claim) ~= token then
  return -1
end
redis.call('SET', stock, fromDatabase)
redis.call('SET', epoch, newEpoch)
redis.call('DEL', claim)
return 1
