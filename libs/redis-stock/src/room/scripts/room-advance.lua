-- room-advance: the prelude every room script starts with (prepended when the scripts are loaded;
-- never run alone). A room's keys share the coupon's hash tag (one cluster slot):
-- KEYS[1]  the room, a hash: admitPerSec, windowMs, left (units not yet sold through the room;
--          absent = not loaded), seq (the last ticket issued), head (the last ticket admitted),
--          nextAt (ms, Redis clock: the earliest time of the next admission), admitted, expired
-- KEYS[2]  userId -> ticket number (a hash)
-- KEYS[3]  ticket number -> its secret (a hash)
-- KEYS[4]  admitted tickets neither used nor expired, a sorted set: ticket number -> until (ms)
-- KEYS[5]  ticket number -> until (ms), for every ticket ever admitted (a hash)
-- advance(now) expires admitted tickets past their window, then admits waiting tickets in ticket
-- order, one every 1000 / admitPerSec ms at most, while fewer are admitted than units are left.
-- It returns the room's state, or nil when the room is not loaded.
local room, users, tickets, active, untils = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local MAX_ADMITS = 1000 -- per call; the next call admits the rest, on the same schedule

local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function advance(now)
  local f = redis.call('HMGET', room, 'admitPerSec', 'windowMs', 'left', 'seq', 'head', 'nextAt')
  if not f[3] then
    return nil
  end
  local s = {
    interval = 1000 / tonumber(f[1]),
    windowMs = tonumber(f[2]),
    left = tonumber(f[3]),
    seq = tonumber(f[4] or 0),
    head = tonumber(f[5] or 0),
    nextAt = tonumber(f[6] or 0),
  }
  local gone = redis.call('ZREMRANGEBYSCORE', active, '-inf', '(' .. now)
  if gone > 0 then
    redis.call('HINCRBY', room, 'expired', gone)
  end
  local busy = redis.call('ZCARD', active)
  local admits = 0
  while s.head < s.seq and s.nextAt <= now and busy < s.left and admits < MAX_ADMITS do
    s.head = s.head + 1
    busy = busy + 1
    admits = admits + 1
    local untilMs = math.floor(s.nextAt) + s.windowMs
    redis.call('ZADD', active, untilMs, s.head)
    redis.call('HSET', untils, s.head, untilMs)
    s.nextAt = s.nextAt + s.interval
  end
  -- Nobody waiting, or no unit free: the time that passes earns no admissions for later (no burst).
  if s.head >= s.seq or busy >= s.left then
    s.nextAt = math.max(s.nextAt, now)
  end
  redis.call('HSET', room, 'head', s.head, 'nextAt', string.format('%.4f', s.nextAt))
  if admits > 0 then
    redis.call('HINCRBY', room, 'admitted', admits)
  end
  return s
end

-- How long a waiting ticket at `position` should wait (ms), if every admission ahead is used.
local function etaMs(s, position, now)
  return math.floor(math.max(0, s.nextAt - now) + (position - 1) * s.interval)
end
