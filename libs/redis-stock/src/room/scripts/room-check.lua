-- room-check: may this grab go ahead? The room advances first.
-- KEYS     as room-advance.lua says
-- ARGV[1]  the userId
-- ARGV[2]  the ticket number the grab carries ('' for none)
-- ARGV[3]  its secret
-- Returns  {-2} when the room is not loaded,
--          {1} when the ticket is the user's, admitted, within its window and not used,
--          {-1} when the user waits and the room is sold out,
--          {0, position} otherwise: the position of the user's own ticket while it waits, else 0.
local now = nowMs()
local s = advance(now)
if not s then
  return { -2 }
end
local mine = tonumber(redis.call('HGET', users, ARGV[1]))
if not mine then
  return { 0, 0 }
end
if mine > s.head then
  if s.left <= 0 then
    return { -1 }
  end
  return { 0, mine - s.head }
end
local given = tonumber(ARGV[2])
if given == mine and redis.call('HGET', tickets, mine) == ARGV[3] and redis.call('ZSCORE', active, mine) then
  return { 1 }
end
return { 0, 0 }
