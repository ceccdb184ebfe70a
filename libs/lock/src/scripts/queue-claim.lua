-- Claim (queue wait mode): a waiter that a release handed the lock turns the claim lease into its
-- full lease, if the lock is still its own. The release took its entry off the queue already, so
-- this is all a claim does, in half the calls of queue-acquire.lua (which still claims for a
-- heartbeat that finds itself the owner, and for a fenced waiter that must draw its token). A
-- lock that is not ours any more is never taken again here: the holder's section ran without
-- it, and it is told so.
-- KEYS[1] lock key (string: owner value; hash: owner id → hold count)
-- ARGV[1] owner value
-- ARGV[2] lease in ms
-- returns 1 claimed, 0 not ours (the claim lease ran out and the lock passed on, or was deleted)
local lockKey, owner = KEYS[1], ARGV[1]

local found = redis.call('type', lockKey)['ok']
if found == 'string' then
  if redis.call('get', lockKey) ~= owner then return 0 end
elseif found == 'hash' then
  if redis.call('hexists', lockKey, owner) == 0 then return 0 end
else
  return 0
end
redis.call('pexpire', lockKey, tonumber(ARGV[2]))
return 1
