import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards, UsePipes } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { GRAB_ERROR_CODES } from '@app/contract';
import type {
  Audit,
  Coupon,
  CouponWithGrants,
  GrabAccepted,
  GrabGranted,
  Grant,
  OrderDeadLettered,
  OrderPending,
  ReconcileReport,
} from '@app/contract';
import { RedisStock } from '@app/redis-stock';
import { CouponsService, GrantNotFoundError, HoldsService, StockUnavailableError } from '@app/stock';
import { ApiErrors } from '../common/api-errors.decorator';
import { AdminGuard } from '../common/admin.guard';
import { CouponIdPipe } from '../common/coupon-id.pipe';
import { AppValidationPipe } from '../common/validation.pipe';
import { GrabService } from '../grab/grab.service';
import { OrderPipeline } from '../orders/order-pipeline';
import { RoomGate } from '../room/room-gate';
import { ChaosGate } from './chaos-gate';
import { StockReconciler } from './stock-reconciler';
import { CouponLocks } from './coupon-locks';
import { CreateCouponDto } from './dto/create-coupon.dto';
import { roomSettings } from '../room/dto/room-settings.dto';
import { GrabBodyDto } from './dto/grab-body.dto';
import { GrabQueryDto, grabOptions } from './dto/grab-query.dto';
import { ResetCouponDto } from './dto/reset-coupon.dto';
import { clientGone, type RawResponseHolder } from '../grab/client-gone';
import { GrabBodyPipe, GrabQueryPipe, UserIdPipe } from './grab-request.pipe';

/** The part of the HTTP response a handler uses to answer 202 (Fastify's `reply.status`). */
interface StatusSetter {
  status(code: number): unknown;
}

@ApiTags('coupons')
@Controller('coupons')
export class CouponsController {
  constructor(
    private readonly coupons: CouponsService,
    private readonly grabs: GrabService,
    private readonly locks: CouponLocks,
    private readonly chaos: ChaosGate,
    private readonly reconciler: StockReconciler,
    private readonly redisStock: RedisStock,
    private readonly holds: HoldsService,
    private readonly orders: OrderPipeline,
    private readonly room: RoomGate,
  ) {}

  @Post()
  @UseGuards(AdminGuard)
  @UsePipes(AppValidationPipe)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Create a coupon with its stock (admin)' })
  @ApiCreatedResponse({ description: 'the coupon: { id, name, stock, initialStock, segments }, and room when given' })
  @ApiErrors('REQUEST.INVALID', 'REQUEST.TOO_LARGE', 'AUTH.UNAUTHORIZED', 'DEPENDENCY.UNAVAILABLE')
  create(@Body() body: CreateCouponDto): Promise<Coupon> {
    return this.coupons.create(body.name ?? 'coupon', body.stock, body.segments ?? 1, roomSettings(body.room));
  }

  @Post(':id/reset')
  @HttpCode(200)
  @UseGuards(AdminGuard)
  @UsePipes(AppValidationPipe)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Back to a given stock: grants deleted, lock keys cleared (admin)' })
  @ApiOkResponse({ description: 'the coupon, its grants deleted and its lock keys cleared' })
  @ApiErrors('REQUEST.INVALID', 'REQUEST.TOO_LARGE', 'AUTH.UNAUTHORIZED', 'COUPON.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  async reset(@Param('id', CouponIdPipe) id: number, @Body() body: ResetCouponDto): Promise<Coupon> {
    // Redis's counter is held while the stock of record is reset, then dropped; then the lock keys.
    const coupon = await this.redisStock.reset(id, () => this.coupons.reset(id, body.stock, body.segments));
    await this.locks.clear(id);
    await this.room.clear(id);
    return coupon;
  }

  @Get(':id')
  @ApiOperation({ summary: 'A coupon, its stock and its grant count' })
  @ApiOkResponse({ description: '{ id, name, stock, initialStock, segments, grants }' })
  @ApiErrors('REQUEST.INVALID', 'COUPON.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  get(@Param('id', CouponIdPipe) id: number): Promise<CouponWithGrants> {
    return this.coupons.get(id);
  }

  @Get(':id/audit')
  @ApiOperation({ summary: 'What the database says: oversold, lost updates, concurrent holders' })
  @ApiOkResponse({
    description:
      '{ initialStock, stock, grants, oversold, lostUpdates, maxConcurrentHolders }, once the coupon has holds { held, confirmed, expired, cancelled }, and with a room room: { joined, admitted, expired } (counted in Redis)',
  })
  @ApiErrors('REQUEST.INVALID', 'COUPON.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  async audit(@Param('id', CouponIdPipe) id: number): Promise<Audit> {
    const [audit, room] = await Promise.all([this.holds.audit(id), this.room.figures(id)]);
    return room ? { ...audit, room } : audit;
  }

  @Get(':id/grants')
  @ApiOperation({ summary: 'Every grant with its critical-section timestamps (database clock)' })
  @ApiOkResponse({ description: 'the grants, each with enteredAt and leftAt' })
  @ApiErrors('REQUEST.INVALID', 'COUPON.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  grants(@Param('id', CouponIdPipe) id: number): Promise<Grant[]> {
    return this.coupons.grants(id);
  }

  @Get(':id/grants/:userId')
  @ApiOperation({ summary: "One user's grant, or 404 GRANT.NOT_FOUND: how a buyer whose answer was lost learns" })
  @ApiOkResponse({ description: 'the grant: enteredAt, leftAt, replica, strategy' })
  @ApiAcceptedResponse({
    description: '{ status: "pending", orderId }: an accepted redis-stream order not yet persisted',
  })
  @ApiErrors('REQUEST.INVALID', 'GRANT.NOT_FOUND', 'ORDER.DEAD_LETTERED', 'DEPENDENCY.UNAVAILABLE')
  async grant(
    @Param('id', CouponIdPipe) id: number,
    @Param('userId', UserIdPipe) userId: string,
    @Res({ passthrough: true }) res: StatusSetter,
  ): Promise<Grant | OrderPending | OrderDeadLettered> {
    let databaseDown: StockUnavailableError | undefined;
    try {
      return await this.coupons.grant(id, userId);
    } catch (error) {
      if (error instanceof StockUnavailableError) databaseDown = error;
      else if (!(error instanceof GrantNotFoundError)) throw error;
    }
    // Not in the database (or it is down): an accepted order may be waiting in Redis, or given up.
    const order = await this.orders.lookup(id, userId);
    if (order?.state === 'pending') {
      res.status(202);
      return { status: 'pending', orderId: order.orderId };
    }
    if (databaseDown) throw databaseDown;
    // Persisted between the two looks (a later order of the user's): the grant is there now.
    const grant = await this.coupons.grant(id, userId).catch((error: unknown) => {
      if (order?.state === 'dead-lettered' && error instanceof GrantNotFoundError) return null;
      throw error;
    });
    if (grant) return grant;
    res.status(410);
    const { orderId, reason } = order as { orderId: string; reason: string };
    return { code: 'ORDER.DEAD_LETTERED', message: `order ${orderId} was given up: ${reason}`, orderId, reason };
  }

  @Post(':id/reconcile')
  @HttpCode(200)
  @UseGuards(AdminGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Compare Redis's stock (redis-lua) with the stock of record, and repair Redis (admin)" })
  @ApiOkResponse({ description: 'what was compared and what was repaired' })
  @ApiErrors('REQUEST.INVALID', 'AUTH.UNAUTHORIZED', 'COUPON.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  reconcile(@Param('id', CouponIdPipe) id: number): Promise<ReconcileReport> {
    return this.reconciler.reconcile(id);
  }

  @Post(':id/grab')
  @HttpCode(200)
  @ApiOperation({ summary: 'Take one coupon for a user under the chosen strategy' })
  @ApiOkResponse({ description: '{ granted: true, couponId, userId, strategy, replica, remaining }' })
  @ApiAcceptedResponse({
    description: 'redis-stream: { accepted: true, couponId, userId, orderId, strategy, replica }',
  })
  @ApiErrors('REQUEST.INVALID', 'REQUEST.TOO_LARGE', 'CHAOS.DISABLED', 'COUPON.NOT_FOUND', ...GRAB_ERROR_CODES)
  @ApiBody({ type: GrabBodyDto })
  async grab(
    @Param('id', CouponIdPipe) id: number,
    @Body(GrabBodyPipe) body: GrabBodyDto,
    @Query(GrabQueryPipe) query: GrabQueryDto,
    @Res({ passthrough: true }) res: StatusSetter & RawResponseHolder,
    @Headers('authorization') authorization?: string,
  ): Promise<GrabGranted | GrabAccepted> {
    this.chaos.check(query, authorization);
    const run = () => this.grabs.grab(id, body.userId, grabOptions(query, clientGone(res)));
    const answer = await this.room.grab(id, body.userId, body.ticket, run);
    if ('accepted' in answer) res.status(202);
    return answer;
  }
}
