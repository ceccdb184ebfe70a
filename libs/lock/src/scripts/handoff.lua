-- Hand-off: the holder passes its lock straight to the next waiter of its own process, if the
-- lock is still its own with no nested holds; the lock is never free in between, so no other
-- process is woken. The taker runs only after this answered.
-- KEYS[1] lock (string: owner value; hash: owner -> hold count)
-- KEYS[2] fence counter (never expires)
-- ARGV[1] holder's owner value   ARGV[2] taker's owner value
-- ARGV[3] taker's lease in ms; 0 keeps a string lock without expiry (setnx)
-- ARGV[4] 'string' or 'hash'     ARGV[5] '1' to draw the taker's fencing token
-- returns the taker's token (1 when not fenced) when handed; 0 when not ours: nothing changed
local lockKey, fenceKey = KEYS[1], KEYS[2]
local owner, taker, leaseMs = ARGV[1], ARGV[2], tonumber(ARGV[3])
local hash, fenced = ARGV[4] == 'hash', ARGV[5] == '1'

local found = redis.call('type', lockKey)['ok']
if hash then
  if found ~= 'hash' or redis.call('hget', lockKey, owner) ~= '1' or redis.call('hlen', lockKey) ~= 1 then
    return 0
  end
  redis.call('del', lockKey)
  redis.call('hset', lockKey, taker, 1)
  redis.call('pexpire', lockKey, leaseMs)
else
  if found ~= 'string' or redis.call('get', lockKey) ~= owner then return 0 end
  if leaseMs > 0 then redis.call('set', lockKey, taker, 'PX', leaseMs) else redis.call('set', lockKey, taker) end
end
if not fenced then return 1 end
if redis.call('exists', fenceKey) == 0 then
  local time = redis.call('time')
  redis.call('set', fenceKey, time[1] .. string.format('%06d', tonumber(time[2])))
end
return redis.call('incr', fenceKey)
