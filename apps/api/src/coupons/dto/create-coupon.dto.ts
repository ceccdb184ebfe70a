import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class CreateCouponDto {
  @ApiPropertyOptional({ maxLength: 100, example: 'spring-sale' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiProperty({ minimum: 0, maximum: 10_000_000, example: 100 })
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  stock: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 64,
    default: 1,
    description: 'stock rows, one lock each under `segmented`',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  segments?: number;
}
