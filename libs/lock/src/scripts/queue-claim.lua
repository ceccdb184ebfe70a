-- Claim (queue wait mode): a waiter that a release handed the lock turns the claim lease into its
-- full lease, if the lock is still its own and of its kind. The release took its entry off the
-- queue already, so this is all a claim does, in a third of the calls of queue-acquire.lua (which
-- still claims for a heartbeat that finds itself the owner, and for a fenced waiter that must draw
-- its token). A lock that is not ours any more, or free, is never taken here: the holder's section
-- ran without it, and it is told so.
-- KEYS[1] lock key (string: owner value; hash: owner id → hold count, by ARGV[3])
-- ARGV[1] owner value
-- ARGV[2] lease in ms
-- ARGV[3] 'string' or 'hash': a lock of the other kind (handed on by a holder of that kind) is
--         not ours either, as for every other script
-- returns 1 claimed, 0 not ours (the claim lease ran out and the lock passed on or was deleted,
--         or it is of the other kind)
local lockKey, owner = KEYS[1], ARGV[1]

-- pcall: a lock of the other kind answers an error, which is not our owner value either.
if ARGV[3] == 'string' then
  if redis.pcall('get', lockKey) ~= owner then return 0 end
elseif redis.pcall('hexists', lockKey, owner) ~= 1 then
  return 0
end
redis.call('pexpire', lockKey, tonumber(ARGV[2]))
return 1
