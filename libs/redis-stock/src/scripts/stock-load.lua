-- stock-load: set a coupon's counter from the database, unless another process loaded it first.
-- KEYS[1]  the coupon's stock counter
-- ARGV[1]  the stock the database holds now
-- Returns  1 when this call loaded it, 0 when it was already loaded.
local stock = KEYS[1]
local fromDatabase = ARGV[1]

if redis.call('SET', stock, fromDatabase, 'NX') then
  return 1
end
return 0
