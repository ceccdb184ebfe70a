import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ChaosDisabledError, RequestInvalidError } from '@app/apps-common';
import { isSchedStrategy, SCHED_STRATEGIES, type SchedRoundView } from '@app/contract';
import { NotFoundError } from '../common/lab.errors';
import { LabService } from '../lab.service';
import { SchedRound } from './sched-round';

/** Rounds kept for their page; an older one is forgotten (its grabs are let go by their gates). */
const KEPT_ROUNDS = 20;

const field = (body: unknown, name: string): unknown =>
  body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;

/**
 * Be the scheduler: the learner's rounds. Each action needs the admin token and chaos, as faults
 * do: a round holds real requests, and their locks, open between steps.
 */
@Controller('api/sched')
export class SchedulerController {
  private readonly rounds = new Map<string, SchedRound>();

  constructor(private readonly lab: LabService) {}

  @Post('rounds')
  @HttpCode(201)
  async start(@Body() body: unknown, @Headers('authorization') authorization?: string): Promise<SchedRoundView> {
    const strategy = field(body, 'strategy');
    if (typeof strategy !== 'string' || !isSchedStrategy(strategy))
      throw new RequestInvalidError(`strategy must be one of ${SCHED_STRATEGIES.join(', ')}`);
    this.allowed(authorization);
    const round = new SchedRound(strategy, this.lab.clients, this.lab.keys);
    this.rounds.set(round.id, round);
    for (const id of [...this.rounds.keys()].slice(0, -KEPT_ROUNDS)) this.rounds.delete(id);
    return round.start();
  }

  @Get('rounds/:id')
  view(@Param('id') id: string): Promise<SchedRoundView> {
    return this.round(id).view();
  }

  @Post('rounds/:id/step')
  @HttpCode(200)
  step(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('authorization') authorization?: string,
  ): Promise<SchedRoundView> {
    const round = this.round(id);
    const buyer = field(body, 'buyer');
    if (buyer !== 1 && buyer !== 2) throw new RequestInvalidError('buyer must be 1 or 2');
    this.allowed(authorization);
    return round.step(buyer);
  }

  @Post('rounds/:id/expire-lease')
  @HttpCode(200)
  expire(@Param('id') id: string, @Headers('authorization') authorization?: string): Promise<SchedRoundView> {
    const round = this.round(id);
    this.allowed(authorization);
    return round.expireLease();
  }

  private round(id: string): SchedRound {
    const round = this.rounds.get(id);
    if (!round) throw new NotFoundError(`no round "${id}"`);
    return round;
  }

  private allowed(authorization: string | undefined): void {
    this.lab.token.assert(authorization);
    if (!this.lab.deployment.chaos)
      throw new ChaosDisabledError('the scheduler steps grabs with a chaos option: this stack runs without chaos');
  }
}
