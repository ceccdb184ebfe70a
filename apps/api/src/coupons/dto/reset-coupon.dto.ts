import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class ResetCouponDto {
  @ApiProperty({ minimum: 0, maximum: 10_000_000, example: 100 })
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  stock: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 64 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  segments?: number;
}
