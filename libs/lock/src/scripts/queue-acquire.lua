-- Fair acquire (queue wait mode): take the lock if it is free and no fresh waiter is ahead of us,
-- else join the lock's queue (or refresh our heartbeat in it). A caller that finds itself the
-- owner here claims: it drops its entry and turns the claim lease into its full lease (a heartbeat
-- whose wake-up message was lost, a fenced waiter handed the lock without a token, a local
-- hand-off's taker); a waiter woken by its message claims with queue-claim.lua instead.
-- KEYS[1] lock key (string: owner value; hash: owner id → hold count, by ARGV[5])
-- KEYS[2] queue (list of entries `tag|owner`, oldest first)
-- KEYS[3] heartbeat deadlines (sorted set: entry → deadline in ms by Redis's clock)
-- KEYS[4] fence counter (drawn from when ARGV[6] is '1' or it exists)
-- ARGV[1] owner value         ARGV[2] our entry (`tag|owner`, tag names our wake-up channel)
-- ARGV[3] lease in ms         ARGV[4] heartbeat in ms; 0 = one attempt only, never queue
-- ARGV[5] 'string' or 'hash'  ARGV[6] '1' to draw a fencing token on taking the lock
-- ARGV[7] wake-up channel prefix (a waiter's shard channel, SPUBLISH, is prefix .. tag)
-- ARGV[8] claim lease in ms: how long a waiter handed the lock has to claim it
-- A hand-over draws the next waiter's token when the caller fences or the lock has a counter, so
-- a fenced waiter handed the lock by any kind of holder has one; a fenced claim finding no
-- counter draws its own (see queue-release.lua).
-- returns {1, token, handed}: ours (token 0 unless fenced; handed 1 when it was handed to us);
--         {0, ms}: not ours, wait at most ms (the holder's PTTL, -1 no expiry, or the claim lease
--         of the waiter ahead, to whom this call just handed the free lock)
local lockKey, queueKey, deadlinesKey, fenceKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, entry = ARGV[1], ARGV[2]
local leaseMs, heartbeatMs = tonumber(ARGV[3]), tonumber(ARGV[4])
local kind, fenced, wakePrefix, claimMs = ARGV[5], ARGV[6] == '1', ARGV[7], tonumber(ARGV[8])
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- The lock's single owner; false when free; '' when held in a way we cannot hand (another kind).
local function ownerOf()
  local found = redis.call('type', lockKey)['ok']
  if found == 'none' then return false end
  if found == 'string' and kind == 'string' then return redis.call('get', lockKey) end
  if found == 'hash' and kind == 'hash' and redis.call('hlen', lockKey) == 1 then
    return redis.call('hkeys', lockKey)[1]
  end
  return ''
end

local function setOwner(next, ms)
  if kind == 'string' then
    redis.call('set', lockKey, next, 'PX', ms)
  else
    redis.call('del', lockKey)
    redis.call('hset', lockKey, next, 1)
    redis.call('pexpire', lockKey, ms)
  end
end

-- The next fencing token; a lost counter starts again from Redis's clock (see fenced-acquire.lua).
local function nextToken()
  if redis.call('exists', fenceKey) == 0 then
    redis.call('set', fenceKey, time[1] .. string.format('%06d', tonumber(time[2])))
  end
  return redis.call('incr', fenceKey)
end

-- The first waiter whose heartbeat is fresh; dead ones met on the way leave the queue.
local function freshHead()
  while true do
    local head = redis.call('lindex', queueKey, 0)
    if not head then return nil end
    local deadline = tonumber(redis.call('zscore', deadlinesKey, head))
    if deadline and deadline >= now then return head end
    redis.call('lpop', queueKey)
    redis.call('zrem', deadlinesKey, head)
  end
end

-- An entry is in the list exactly while it has a deadline: the ZREM says whether to scan the list.
local function dropEntry(which)
  if redis.call('zrem', deadlinesKey, which) == 1 then redis.call('lrem', queueKey, 1, which) end
end

local current = ownerOf()
if current == owner then
  dropEntry(entry)
  redis.call('pexpire', lockKey, leaseMs)
  local token = 0
  if fenced and redis.call('exists', fenceKey) == 0 then
    token = nextToken() -- handed by a holder that drew none: no counter existed yet
  elseif fenced then
    token = tonumber(redis.call('get', fenceKey))
  end
  return {1, token, 1}
end
local head = freshHead()
if current == false and (head == nil or head == entry) then
  dropEntry(entry)
  setOwner(owner, leaseMs)
  local token = 0
  if fenced then token = nextToken() end
  return {1, token, 0}
end
if current == false then
  -- Free, yet a fresh waiter is ahead (a lease ran out, or a claim was missed): hand it over now.
  dropEntry(head)
  local bar = string.find(head, '|', 1, true)
  local next = string.sub(head, bar + 1)
  setOwner(next, claimMs)
  local message = next
  if fenced or redis.call('exists', fenceKey) == 1 then
    nextToken()
    -- The counter's text, not the number: Lua would print a token this large in e-notation.
    message = next .. ' ' .. redis.call('get', fenceKey)
  end
  redis.call('spublish', wakePrefix .. string.sub(head, 1, bar - 1), message)
end
if heartbeatMs > 0 then
  if redis.call('zadd', deadlinesKey, now + heartbeatMs, entry) == 1 then redis.call('rpush', queueKey, entry) end
  redis.call('pexpire', queueKey, heartbeatMs * 2)
  redis.call('pexpire', deadlinesKey, heartbeatMs * 2)
end
if current == false then return {0, claimMs} end
return {0, redis.call('pttl', lockKey)}
