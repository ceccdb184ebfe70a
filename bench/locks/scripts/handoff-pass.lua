-- The hand-off ring's pass (bench only, no lock): what a fair queue's release must do to hand the
-- lock on, at its least. It sets the lock to the next process for the claim lease and wakes that
-- process alone, in one call; unlike ours, no owner check and no queue to read.
-- KEYS[1] lock key
-- ARGV[1] the next process's channel, which is also its owner value
-- ARGV[2] claim lease in ms
-- returns the receivers of the wake-up
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return redis.call('spublish', ARGV[1], 'turn')
