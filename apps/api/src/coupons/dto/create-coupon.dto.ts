import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { RoomSettingsDto } from '../../room/dto/room-settings.dto';

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

  @ApiPropertyOptional({
    type: RoomSettingsDto,
    description: 'a waiting room: buyers join, are admitted in arrival order, then grab with their ticket',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RoomSettingsDto)
  room?: RoomSettingsDto;
}
