import { Body, Controller, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HOLD_MS, type Grant, type Hold, type HoldCancelled } from '@app/contract';
import { HoldsService } from '@app/stock';
import { ApiErrors } from '../common/api-errors.decorator';
import { CouponIdPipe } from '../common/coupon-id.pipe';
import { AppConfig } from '../config/app-config';
import { ChaosGate } from '../coupons/chaos-gate';
import { USER_ID } from '../coupons/dto/grab-body.dto';
import {
  HoldCallBodyPipe,
  HoldIdPipe,
  holdQueryPipe,
  OpenHoldBodyPipe,
  type HoldQuery,
  type OpenHoldBody,
} from './hold-request.pipe';

const USER_ID_SCHEMA = { type: 'string', pattern: USER_ID.source, example: 'user-42' };
const OPEN_BODY = {
  type: 'object',
  required: ['userId'],
  properties: {
    userId: USER_ID_SCHEMA,
    holdMs: { type: 'integer', minimum: HOLD_MS.min, maximum: HOLD_MS.max, default: HOLD_MS.default },
  },
};
const CALL_BODY = {
  type: 'object',
  required: [],
  properties: { userId: { ...USER_ID_SCHEMA, description: "when given, must be the hold's buyer" } },
};

@ApiTags('holds')
@Controller('coupons/:id/holds')
export class HoldsController {
  constructor(
    private readonly holds: HoldsService,
    private readonly chaos: ChaosGate,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Reserve a unit for a buyer until a deadline (holds=naive: the textbook path, chaos)' })
  @ApiCreatedResponse({ description: '{ holdId, couponId, userId, expiresAt }' })
  @ApiBody({ schema: OPEN_BODY })
  @ApiErrors(
    'REQUEST.INVALID',
    'REQUEST.TOO_LARGE',
    'CHAOS.DISABLED',
    'COUPON.NOT_FOUND',
    'STOCK.SOLD_OUT',
    'GRANT.DUPLICATE',
    'DEPENDENCY.UNAVAILABLE',
  )
  open(
    @Param('id', CouponIdPipe) id: number,
    @Body(OpenHoldBodyPipe) body: OpenHoldBody,
    @Query(holdQueryPipe('holds')) query: HoldQuery,
  ): Promise<Hold> {
    this.chaos.checkGiven(query.holds ? ['holds'] : []);
    return this.holds.open(id, body.userId, body.holdMs, query.holds === 'naive');
  }

  @Post(':holdId/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Pay: the hold becomes a grant, if still open before its deadline (raceExpiry=1: chaos)' })
  @ApiOkResponse({ description: 'the grant' })
  @ApiBody({ schema: CALL_BODY, required: false })
  @ApiErrors(
    'REQUEST.INVALID',
    'CHAOS.DISABLED',
    'HOLD.NOT_FOUND',
    'HOLD.EXPIRED',
    'HOLD.CANCELLED',
    'GRANT.DUPLICATE',
    'DEPENDENCY.UNAVAILABLE',
  )
  confirm(
    @Param('id', CouponIdPipe) id: number,
    @Param('holdId', HoldIdPipe) holdId: string,
    @Body(HoldCallBodyPipe) body: { userId?: string },
    @Query(holdQueryPipe('raceExpiry')) query: HoldQuery,
  ): Promise<Grant> {
    this.chaos.checkGiven(query.raceExpiry ? ['raceExpiry'] : []);
    return this.holds.confirm({ couponId: id, holdId, ...body }, this.config.replicaId, query.raceExpiry);
  }

  @Post(':holdId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Give the unit back, if the hold is still open before its deadline' })
  @ApiOkResponse({ description: '{ holdId, state: "cancelled" }' })
  @ApiBody({ schema: CALL_BODY, required: false })
  @ApiErrors('REQUEST.INVALID', 'HOLD.NOT_FOUND', 'HOLD.EXPIRED', 'HOLD.CONFIRMED', 'DEPENDENCY.UNAVAILABLE')
  cancel(
    @Param('id', CouponIdPipe) id: number,
    @Param('holdId', HoldIdPipe) holdId: string,
    @Body(HoldCallBodyPipe) body: { userId?: string },
    @Query(holdQueryPipe()) _query: HoldQuery,
  ): Promise<HoldCancelled> {
    return this.holds.cancel({ couponId: id, holdId, ...body });
  }
}
