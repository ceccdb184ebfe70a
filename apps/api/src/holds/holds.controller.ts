import { Body, Controller, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Grant, Hold, HoldCancelled } from '@app/contract';
import { HoldsService } from '@app/stock';
import { ApiErrors } from '../common/api-errors.decorator';
import { CouponIdPipe } from '../common/coupon-id.pipe';
import { AppConfig } from '../config/app-config';
import { ChaosGate } from '../coupons/chaos-gate';
import {
  HoldCallBodyPipe,
  HoldIdPipe,
  holdQueryPipe,
  OpenHoldBodyPipe,
  type HoldQuery,
  type OpenHoldBody,
} from './hold-request.pipe';

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
  @ApiErrors('REQUEST.INVALID', 'CHAOS.DISABLED', 'COUPON.NOT_FOUND', 'STOCK.SOLD_OUT', 'GRANT.DUPLICATE')
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
  @ApiErrors('REQUEST.INVALID', 'CHAOS.DISABLED', 'HOLD.NOT_FOUND', 'HOLD.EXPIRED', 'HOLD.CANCELLED', 'GRANT.DUPLICATE')
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
  @ApiErrors('REQUEST.INVALID', 'HOLD.NOT_FOUND', 'HOLD.EXPIRED', 'HOLD.CONFIRMED')
  cancel(
    @Param('id', CouponIdPipe) id: number,
    @Param('holdId', HoldIdPipe) holdId: string,
    @Body(HoldCallBodyPipe) body: { userId?: string },
    @Query(holdQueryPipe()) _query: HoldQuery,
  ): Promise<HoldCancelled> {
    return this.holds.cancel({ couponId: id, holdId, ...body });
  }
}
