-- order-drop-empty: delete a coupon's order stream once it holds no entry (every order persisted).
-- KEYS[1]  the order stream
-- Returns  1 when deleted (its consumer group goes with it; the next accept creates the stream
--          again and a persister its group, from the first entry), 0 when it holds entries.
-- Entries are deleted only once acknowledged, so a stream with none has none pending either.
local orders = KEYS[1]

if redis.call('XLEN', orders) == 0 then
  return redis.call('DEL', orders)
end
return 0
