-- room-join: a buyer joins the room (or gets its ticket again), then the room advances.
-- KEYS     as room-advance.lua says
-- ARGV[1]  the userId
-- ARGV[2]  a fresh random secret, the ticket's if the user has none yet
-- Returns  {-2} when the room is not loaded (the caller loads it from the database and retries),
--          {-1} when sold out,
--          {ticket number, secret, position (from 1; 1 once admitted), etaMs}
if not redis.call('HGET', room, 'left') then
  return { -2 }
end
if tonumber(redis.call('HGET', room, 'left')) <= 0 then
  return { -1 }
end
local now = nowMs()
-- First as the room was: an idle room's schedule starts now, not when it last admitted.
advance(now)
local n = tonumber(redis.call('HGET', users, ARGV[1]))
if not n then
  n = redis.call('HINCRBY', room, 'seq', 1)
  redis.call('HSET', users, ARGV[1], n)
  redis.call('HSET', tickets, n, ARGV[2])
end
local s = advance(now)
local position = math.max(1, n - s.head)
return { n, redis.call('HGET', tickets, n), position, n > s.head and etaMs(s, position, now) or 0 }
