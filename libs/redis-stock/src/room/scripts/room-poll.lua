-- room-poll: what a ticket is now, after the room advances.
-- KEYS     as room-advance.lua says
-- ARGV[1]  the ticket number
-- ARGV[2]  its secret
-- Returns  {-2} when the room is not loaded, {-3} for an unknown ticket,
--          {0, position, etaMs} waiting, {1, until} admitted, {2} sold out, {3} expired.
--          A ticket used for a grant reads admitted until its window ends, then expired.
local now = nowMs()
local s = advance(now)
if not s then
  return { -2 }
end
local n = tonumber(ARGV[1])
if redis.call('HGET', tickets, n) ~= ARGV[2] then
  return { -3 }
end
if n > s.head then
  if s.left <= 0 then
    return { 2 }
  end
  local position = n - s.head
  return { 0, position, etaMs(s, position, now) }
end
local untilMs = tonumber(redis.call('HGET', untils, n))
if untilMs < now then
  return { 3 }
end
if s.left <= 0 and redis.call('ZSCORE', active, n) then
  return { 2 }
end
return { 1, untilMs }
