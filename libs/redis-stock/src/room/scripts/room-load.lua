-- room-load: a room's settings and stock, from the database, unless already loaded.
-- KEYS     as room-advance.lua says
-- ARGV[1]  admitPerSec
-- ARGV[2]  windowMs
-- ARGV[3]  the units left (the stock of record)
-- Returns  1 when loaded now, 0 when it was loaded already.
if redis.call('HGET', room, 'left') then
  return 0
end
redis.call('HSET', room, 'admitPerSec', ARGV[1], 'windowMs', ARGV[2], 'left', ARGV[3])
return 1
