export { createRedlockStrategy, type RedlockStrategyOptions } from './create-redlock-strategy';
export { RedlockStrategy, redlockKey } from './redlock.strategy';
export { quorumOf, clockDriftMs, validityMs, judgeAttempt, type NodeVote } from './redlock-quorum';
