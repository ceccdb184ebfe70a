import { PickType } from '@nestjs/swagger';
import { CreateCouponDto } from './create-coupon.dto';

/** A reset takes the same stock and segments a creation does (validation and docs included). */
export class ResetCouponDto extends PickType(CreateCouponDto, ['stock', 'segments'] as const) {}
