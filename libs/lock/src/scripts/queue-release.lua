-- Fair release (queue wait mode), and the leave of a waiter that gives up: drop our queue entry;
-- if we hold the lock (our last hold), hand it straight to the first waiter with a fresh
-- heartbeat, with a short claim lease, and wake that waiter alone on its own channel; with
-- nobody waiting, delete the lock. A holder's release may also queue the next waiter of its own
-- process (ARGV[8]) at the back, in the same call: that waiter needs no join round trip.
-- The next waiter's fencing token is drawn when we fence or the lock has a fence counter, so a
-- fenced waiter handed the lock by a holder of another kind still gets a token of its own.
-- KEYS[1] lock key (string: owner value; hash: owner id → hold count, by ARGV[3])
-- KEYS[2] queue (list of entries `tag|owner`, oldest first)
-- KEYS[3] heartbeat deadlines (sorted set: entry → deadline in ms by Redis's clock)
-- KEYS[4] fence counter (drawn from when ARGV[4] is '1' or it exists)
-- ARGV[1] owner value         ARGV[2] our entry (`tag|owner`), '' for none
-- ARGV[3] 'string' or 'hash'  ARGV[4] '1': we fence (draw the next waiter's token in any case)
-- ARGV[5] wake-up channel prefix (a waiter's shard channel, SPUBLISH, is prefix .. tag)
-- ARGV[6] claim lease in ms   ARGV[7] lease in ms, re-applied while reentrant holds remain
-- ARGV[8] entry to queue at the back once the lock is let go ('' for none)
-- ARGV[9] that entry's heartbeat in ms
-- returns 1 released (deleted), 2 handed to the next waiter, 0 still held (reentrant holds
--         remain), -1 not ours (expired or taken): nothing changed but our entry is gone; the
--         ARGV[8] entry is queued only with 1 or 2
local lockKey, queueKey, deadlinesKey, fenceKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, entry, kind, fenced = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1'
local wakePrefix, claimMs, leaseMs = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local nextEntry, heartbeatMs = ARGV[8] or '', tonumber(ARGV[9]) or 0
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- An entry is in the list exactly while it has a deadline: the ZREM says whether to scan the list.
if entry ~= '' and redis.call('zrem', deadlinesKey, entry) == 1 then redis.call('lrem', queueKey, 1, entry) end
-- pcall: a lock of the other kind answers an error, which is not our owner value either.
if kind == 'string' then
  if redis.pcall('get', lockKey) ~= owner then return -1 end
else
  if redis.pcall('hexists', lockKey, owner) ~= 1 then return -1 end
  if redis.call('hincrby', lockKey, owner, -1) > 0 then
    redis.call('pexpire', lockKey, leaseMs)
    return 0
  end
end

if nextEntry ~= '' and heartbeatMs > 0 then
  if redis.call('zadd', deadlinesKey, now + heartbeatMs, nextEntry) == 1 then redis.call('rpush', queueKey, nextEntry) end
  redis.call('pexpire', queueKey, heartbeatMs * 2)
  redis.call('pexpire', deadlinesKey, heartbeatMs * 2)
end
while true do
  local head = redis.call('lpop', queueKey)
  if not head then break end
  local deadline = tonumber(redis.call('zscore', deadlinesKey, head))
  redis.call('zrem', deadlinesKey, head)
  if deadline and deadline >= now then
    local bar = string.find(head, '|', 1, true)
    local next = string.sub(head, bar + 1)
    local message = next
    if kind == 'string' then
      redis.call('set', lockKey, next, 'PX', claimMs)
    else
      redis.call('del', lockKey)
      redis.call('hset', lockKey, next, 1)
      redis.call('pexpire', lockKey, claimMs)
    end
    if fenced or redis.call('exists', fenceKey) == 1 then
      if redis.call('exists', fenceKey) == 0 then
        redis.call('set', fenceKey, time[1] .. string.format('%06d', tonumber(time[2])))
      end
      redis.call('incr', fenceKey)
      -- The counter's text, not the number: Lua would print a token this large in e-notation.
      message = next .. ' ' .. redis.call('get', fenceKey)
    end
    redis.call('spublish', wakePrefix .. string.sub(head, 1, bar - 1), message)
    return 2
  end
end
redis.call('del', lockKey)
return 1
