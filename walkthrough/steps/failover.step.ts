import { check } from '../scenario';
import type { Step } from '../step';
import { StepSetupError } from '../walkthrough.errors';
import { failoverRound } from './failover-round';
import { stepProse } from './step-prose';

const WAIT = { replicas: 1, timeoutMs: 200 };

export const failoverStep: Step = {
  ...stepProse('failover'),
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
  ...stepProse('failover-wait', WAIT),
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
