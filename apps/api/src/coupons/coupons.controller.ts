import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CouponsService, type Audit, type Coupon, type CouponWithGrants, type GrantRecord } from '@app/stock';
import { AdminGuard } from '../common/admin.guard';
import { CouponIdPipe } from '../common/coupon-id.pipe';
import { GrabService } from '../grab/grab.service';
import type { GrabResult } from '../grab/grab.types';
import { ChaosGate } from './chaos-gate';
import { CouponLocks } from './coupon-locks';
import { CreateCouponDto } from './dto/create-coupon.dto';
import { GrabBodyDto } from './dto/grab-body.dto';
import { GrabQueryDto } from './dto/grab-query.dto';
import { ResetCouponDto } from './dto/reset-coupon.dto';

@ApiTags('coupons')
@Controller('coupons')
export class CouponsController {
  constructor(
    private readonly coupons: CouponsService,
    private readonly grabs: GrabService,
    private readonly locks: CouponLocks,
    private readonly chaos: ChaosGate,
  ) {}

  @Post()
  @UseGuards(AdminGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Create a coupon with its stock (admin)' })
  create(@Body() body: CreateCouponDto): Promise<Coupon> {
    return this.coupons.create(body.name ?? 'coupon', body.stock, body.segments ?? 1);
  }

  @Post(':id/reset')
  @HttpCode(200)
  @UseGuards(AdminGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Back to a given stock: grants deleted, lock keys cleared (admin)' })
  async reset(@Param('id', CouponIdPipe) id: number, @Body() body: ResetCouponDto): Promise<Coupon> {
    await this.coupons.get(id); // 404 before touching Redis
    await this.locks.clear(id);
    return this.coupons.reset(id, body.stock, body.segments);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A coupon, its stock and its grant count' })
  get(@Param('id', CouponIdPipe) id: number): Promise<CouponWithGrants> {
    return this.coupons.get(id);
  }

  @Get(':id/audit')
  @ApiOperation({ summary: 'What the database says: oversold, lost updates, concurrent holders' })
  audit(@Param('id', CouponIdPipe) id: number): Promise<Audit> {
    return this.coupons.audit(id);
  }

  @Get(':id/grants')
  @ApiOperation({ summary: 'Every grant with its critical-section timestamps (database clock)' })
  grants(@Param('id', CouponIdPipe) id: number): Promise<GrantRecord[]> {
    return this.coupons.grants(id);
  }

  @Post(':id/grab')
  @HttpCode(200)
  @ApiOperation({ summary: 'Take one coupon for a user under the chosen strategy' })
  grab(
    @Param('id', CouponIdPipe) id: number,
    @Body() body: GrabBodyDto,
    @Query() query: GrabQueryDto,
  ): Promise<GrabResult> {
    this.chaos.check(query);
    return this.grabs.grab(id, body.userId, {
      strategy: query.strategy,
      workMs: query.workMs,
      leaseMs: query.leaseMs,
      waitMs: query.waitMs,
      pauseMs: query.pauseMs,
      freezeMs: query.freezeMs,
      crash: query.crash === '1',
      nested: query.nested === '1',
    });
  }
}
