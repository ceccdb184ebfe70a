-- room-settle: what an admitted ticket's grab came to.
-- KEYS     as room-advance.lua says
-- ARGV[1]  the ticket number
-- ARGV[2]  'granted' (the ticket is used, one unit fewer is left) or 'sold-out' (none is left)
-- Returns  1 when the room changed, 0 when not (settled before, or the room is not loaded).
if not redis.call('HGET', room, 'left') then
  return 0
end
if ARGV[2] == 'sold-out' then
  -- The ticket stays admitted (it bought nothing): it reads sold-out, like every waiting one.
  redis.call('HSET', room, 'left', 0)
  return 1
end
if redis.call('ZREM', active, ARGV[1]) == 0 then
  return 0
end
redis.call('HINCRBY', room, 'left', -1)
return 1
