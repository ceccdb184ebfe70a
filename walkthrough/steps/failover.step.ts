import { check } from '../scenario';
import type { Step } from '../step';
import { StepSetupError } from '../walkthrough.errors';
import { failoverRound } from './failover-round';

const WAIT = { replicas: 1, timeoutMs: 200 };

export const failoverStep: Step = {
  name: 'failover',
  title: 'Redis failover: the lock lives on one server, and that server can be replaced',
  explain:
    'In production Redis runs as a primary with a replica that takes over if the primary dies. Replication is asynchronous: the primary ' +
    'answers "OK" before the replica has the write. We start a primary and a replica for this step, hold replication back (the replica is ' +
    "stopped and its link dropped, standing in for a slow network), and let client 1 take the lock on the primary with the lock library's " +
    'owner-checked strategy. Then the primary is killed and the replica promoted, as Sentinel would. The replica never saw the lock, so ' +
    'client 2 takes the very same lock from it while client 1 is still working.',
  expected: 'client 1 enters; the promoted replica has no lock key; client 2 enters too: two holders at once',
  requires: [],
  uses: ['fault', 'servers'],
  async run(ctx) {
    if (ctx.sparePorts.length < 2) throw new StepSetupError('the failover step needs two spare ports');
    const round = await failoverRound(ctx, ctx.sparePorts.slice(0, 2));
    return {
      observed: {
        client1Entered: round.client1Entered,
        replicaLinksDropped: round.replicaLinksDropped,
        lockOnPromotedReplica: round.keyOnPromoted,
        client2Entered: round.client2Entered,
        holdersAtOnce: round.holdersAtOnce,
      },
      checks: [
        check('client 1 entered (lock on the primary)', round.client1Entered, round.client1Entered, 'yes'),
        check('lock key on the promoted replica', round.keyOnPromoted, !round.keyOnPromoted, 'no (never replicated)'),
        check('client 2 entered (same lock, promoted replica)', round.client2Entered, round.client2Entered, 'yes'),
        check('holders at once', round.holdersAtOnce, round.holdersAtOnce === 2, '2'),
      ],
      summary: `Client 1 held the lock on the primary; after the failover the promoted replica had never heard of it, and client 2 took it too: ${round.holdersAtOnce} holders at once.`,
      timeline: {
        title: 'failover: a lock lost with its primary',
        lanes: ['client-1', 'client-2', 'redis'],
        bars: round.bars,
        ticks: round.ticks,
      },
    };
  },
};

export const failoverWaitStep: Step = {
  name: 'failover-wait',
  title: 'Failover with WAIT: a lock no replica has seen is not a lock',
  explain:
    "The same failover, with the lock library's replica-acknowledgement option on: after SET NX PX, a client runs " +
    `WAIT ${WAIT.replicas} ${WAIT.timeoutMs} and counts the lock as taken only if a replica has it (what Redisson does today instead of Redlock). ` +
    'Replication is held back, so WAIT answers 0: client 1 gives the lock back instead of entering. After the failover the promoted node ' +
    'has no replica, so client 2 is refused too, until a new replica is attached; then it gets in, alone. WAIT trades availability for ' +
    'safety and narrows the window; it is not consensus (a replica that acknowledged can still die with the primary).',
  expected:
    'client 1 refused (replicas-missing); client 2 refused until the promoted node has a replica, then enters; never two holders',
  requires: [],
  uses: ['fault', 'servers'],
  async run(ctx) {
    if (ctx.sparePorts.length < 5) throw new StepSetupError('the failover-wait step needs five spare ports');
    const round = await failoverRound(ctx, ctx.sparePorts.slice(2, 5), WAIT);
    const missing = round.events.filter((e) => e.type === 'replicas-missing');
    return {
      observed: {
        client1Entered: round.client1Entered,
        client1Answer: round.client1Error ?? 'entered',
        replicasMissingEvents: missing.length,
        lockOnPromotedReplica: round.keyOnPromoted,
        client2FirstTry: round.client2FirstTry ?? null,
        client2EnteredOnceReplicated: round.client2Entered,
        holdersAtOnce: round.holdersAtOnce,
      },
      checks: [
        check('client 1 entered', round.client1Entered, !round.client1Entered, 'no'),
        check('replicas-missing events', missing.length, missing.length >= 2, '≥ 2 (client 1, then client 2 alone)'),
        check('client 2 once the promoted node has a replica', round.client2Entered, round.client2Entered, 'enters'),
        check('holders at once', round.holdersAtOnce, round.holdersAtOnce === 1, '1'),
      ],
      summary: `No replica acknowledged client 1's lock, so it stood down; client 2 got the lock only once the new primary had a replica: ${round.holdersAtOnce} holder.`,
      timeline: {
        title: 'failover with WAIT: an unreplicated lock is given back',
        lanes: ['client-1', 'client-2', 'redis'],
        bars: round.bars,
        ticks: round.ticks,
      },
    };
  },
};
