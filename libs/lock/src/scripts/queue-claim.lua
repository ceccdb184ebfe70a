-- Claim (queue wait mode): a waiter that a release handed a string lock turns the claim lease into
-- its full lease, if the lock still holds its owner value. The release took its entry off the
-- queue already, so this is all a claim does, in a third of the calls of queue-acquire.lua (which
-- still claims for a heartbeat that finds itself the owner, and for a fenced waiter that must draw
-- its token). A lock that is not ours any more, or free, is never taken here: the holder's section
-- ran without it, and it is told so. A reentrant (hash) lock's claim is reentrant-renew.lua.
-- KEYS[1] lock key (string: owner value)
-- ARGV[1] owner value
-- ARGV[2] lease in ms
-- returns 1 claimed, 0 not ours (the claim lease ran out and the lock passed on or was deleted,
--         or a holder of the other kind handed it on as a hash)
-- pcall: a hash answers an error, which is not our owner value either.
if redis.pcall('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('pexpire', KEYS[1], tonumber(ARGV[2]))
return 1
