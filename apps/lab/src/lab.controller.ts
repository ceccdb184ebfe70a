import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LabConfig, LabState, LoadEvent, StepEvent } from '@app/contract';
import type { StepResult } from '../../../walkthrough/step';
import { RequestInvalidError } from '@app/apps-common';
import { NoLoadError, NotFoundError } from './common/lab.errors';
import { describe as describeError } from './common/error.filter';
import { FAULTS } from './faults/faults';
import { assertOffered } from './faults/offers';
import { LabService } from './lab.service';
import { LoadRun } from './load/load-run';
import { parseFaultTarget, parseLoadRequest } from './load/load-request';
import { openEventStream } from './scenario/event-stream';
import { runStepSession } from './steps/step-session';

const isEmptyBody = (body: unknown) =>
  body === undefined ||
  (typeof body === 'object' && body !== null && !Array.isArray(body) && !Object.keys(body).length);

/** The lab's small API: what it offers, what runs, and the runs themselves as event streams. */
@Controller('api')
export class LabController {
  constructor(private readonly lab: LabService) {}

  @Get('config')
  config(): Promise<LabConfig> {
    return this.lab.config();
  }

  @Get('state')
  state(): LabState {
    return this.lab.slot.state();
  }

  /** A load: validated first, then one at a time; the answer is its event stream. */
  @Post('runs')
  async run(@Body() body: unknown, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const request = parseLoadRequest(
      body,
      (await this.lab.strategies()).map((s) => s.name),
    );
    const claim = this.lab.slot.claim('load', request.strategy);
    const stream = openEventStream<LoadEvent>(req, res, claim.cancel);
    const load = new LoadRun(this.lab.clients, request, claim.signal, (event) => stream.send(event));
    claim.attach(load);
    try {
      await load.run();
      claim.finish({ couponIds: [load.couponId!], sent: load.sent });
    } catch (error) {
      const { body: failure } = describeError(error);
      if (!claim.signal.aborted) stream.send({ type: 'error', code: failure.code, message: (error as Error).message });
      claim.finish({
        couponIds: load.couponId ? [load.couponId] : [],
        sent: load.sent,
        error: (error as Error).message,
      });
    } finally {
      stream.end();
    }
  }

  /** One walkthrough step; one that injects a fault needs the admin token. */
  @Post('steps/:name')
  async step(
    @Param('name') name: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const step = this.lab.step(name);
    if (!step) throw new NotFoundError(`no step "${name}"`);
    if (!isEmptyBody(body)) throw new RequestInvalidError('a step takes no settings: send no body, or {}');
    const uses = step.uses ?? [];
    if (uses.includes('fault')) this.lab.token.assert(authorization);
    assertOffered(`the step ${name}`, uses, this.lab.deployment);
    const claim = this.lab.slot.claim('step', name);
    const stream = openEventStream<StepEvent<StepResult>>(req, res, claim.cancel);
    let couponIds: number[] = [];
    try {
      const session = await runStepSession(step, {
        settings: this.lab.settings,
        control: this.lab.control,
        signal: claim.signal,
        emit: (event) => stream.send(event),
      });
      couponIds = session.couponIds;
      stream.send({ type: 'result', result: session.result });
      const failed = session.result.status === 'error' ? session.result.reason : undefined;
      claim.finish({ couponIds, ...(failed ? { error: failed } : {}) });
    } catch (error) {
      if (!claim.signal.aborted)
        stream.send({ type: 'error', code: describeError(error).body.code, message: (error as Error).message });
      claim.finish({ couponIds, error: (error as Error).message });
    } finally {
      stream.end();
    }
  }

  /** A fault into the running load: checked (token, chaos, control) before anything is attempted. */
  @Post('faults/:name')
  @HttpCode(200)
  async fault(
    @Param('name') name: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<{ fault: string; detail: string }> {
    const fault = FAULTS.find((f) => f.name === name);
    if (!fault) throw new NotFoundError(`no fault "${name}" (have ${FAULTS.map((f) => f.name).join(', ')})`);
    const replica = parseFaultTarget(body, this.lab.clients.replicaIds) ?? this.lab.clients.replicaIds[0];
    this.lab.token.assert(authorization);
    assertOffered(`the fault ${name}`, fault.uses, this.lab.deployment);
    const load = this.lab.slot.running()?.extra;
    if (!load || load.couponId === undefined) throw new NoLoadError();
    const detail = await fault.inject({
      load,
      replica,
      otherReplica: this.lab.otherReplica(replica),
      keys: this.lab.keys,
      control: (path) => this.lab.control!(path),
    });
    return { fault: name, detail };
  }
}
