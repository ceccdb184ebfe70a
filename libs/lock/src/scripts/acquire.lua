-- Fair acquire (Redisson's fair lock): take the lock if it is free and no live process is ahead of
-- ours in the queue, or re-enter a reentrant lock we hold; else queue (or refresh our heartbeat) and
-- say how long to wait at most. Queue entries are process tags: one per process, for its line's front.
-- KEYS[1] lock (string: owner value; hash: owner -> hold count)
-- KEYS[2] queue (list of process tags, oldest first)
-- KEYS[3] heartbeats (sorted set: tag -> when its place expires, in ms by Redis's clock)
-- KEYS[4] fence counter (never expires)
-- ARGV[1] owner value      ARGV[2] our tag: our process's, or one no queue holds (a newcomer)
-- ARGV[3] lease in ms      ARGV[4] heartbeat in ms: 0 makes one attempt and never queues
-- ARGV[5] 'string' or 'hash'                          ARGV[6] '1' to draw a fencing token
-- returns {1, token} taken (token 0 unless fenced); {0, ms} not taken: the holder's PTTL
--         (-1 no expiry, -2 free but a live process is ahead)
local lockKey, queueKey, beatsKey, fenceKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, tag, leaseMs, heartbeatMs = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local hash, fenced = ARGV[5] == 'hash', ARGV[6] == '1'
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- A process whose heartbeat stopped (it died) leaves the queue when it reaches the front.
local front = redis.call('lindex', queueKey, 0)
while front and (tonumber(redis.call('zscore', beatsKey, front)) or 0) < now do
  redis.call('lpop', queueKey)
  redis.call('zrem', beatsKey, front)
  front = redis.call('lindex', queueKey, 0)
end

local found = redis.call('type', lockKey)['ok']
local reenter = hash and found == 'hash' and redis.call('hexists', lockKey, owner) == 1
if reenter or (found == 'none' and (not front or front == tag)) then
  if redis.call('zrem', beatsKey, tag) == 1 then redis.call('lrem', queueKey, 1, tag) end
  if hash then
    redis.call('hincrby', lockKey, owner, 1)
    redis.call('pexpire', lockKey, leaseMs)
  else
    redis.call('set', lockKey, owner, 'PX', leaseMs)
  end
  if not fenced or reenter then return {1, 0} end
  -- A counter lost with Redis's data starts again from Redis's clock in microseconds, above every
  -- token drawn since it was last seeded (fewer than one a microsecond).
  if redis.call('exists', fenceKey) == 0 then
    redis.call('set', fenceKey, time[1] .. string.format('%06d', tonumber(time[2])))
  end
  return {1, redis.call('incr', fenceKey)}
end

if heartbeatMs > 0 then
  if redis.call('zadd', beatsKey, now + heartbeatMs, tag) == 1 then redis.call('rpush', queueKey, tag) end
  redis.call('pexpire', queueKey, heartbeatMs * 2)
  redis.call('pexpire', beatsKey, heartbeatMs * 2)
end
if found == 'none' then return {0, -2} end
return {0, redis.call('pttl', lockKey)}
