-- stock-load-claim: claim the load of a coupon's counter from the stock of record, one loader at a time.
-- KEYS[1]  the coupon's stock counter
-- KEYS[2]  its counter epoch (the database's epoch the counter was loaded in)
-- KEYS[3]  its load claim (the loader's token; a reset holds it while it runs)
-- ARGV[1]  this loader's token
-- ARGV[2]  how long the claim lasts (ms): a loader that dies lets another in after it
-- Returns  0 when the counter is loaded (nothing to do);
--          1 when claimed: the caller starts a new epoch in the database, then loads;
--          -1 when another loader or a reset holds the claim (wait, then ask again).
local stock = KEYS[1]
local epoch = KEYS[2]
local claim = KEYS[3]
local token = ARGV[1]
local leaseMs = ARGV[2]

if redis.call('EXISTS', claim) == 1 then
  return -1
end
if redis.call('EXISTS', stock) == 1 and redis.call('EXISTS', epoch) == 1 then
  return 0
end
redis.call('SET', claim, token, 'PX', leaseMs)
return 1
