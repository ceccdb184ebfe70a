import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ROOM_LIMITS, type RoomSettings } from '@app/contract';

const { admitPerSec, windowMs } = ROOM_LIMITS;

/** `room` of POST /coupons: buyers admitted in arrival order, at most admitPerSec, each for windowMs. */
export class RoomSettingsDto {
  @ApiProperty({ minimum: admitPerSec.min, maximum: admitPerSec.max, example: 200 })
  @IsInt()
  @Min(admitPerSec.min)
  @Max(admitPerSec.max)
  admitPerSec: number;

  @ApiPropertyOptional({
    minimum: windowMs.min,
    maximum: windowMs.max,
    default: windowMs.default,
    description: 'how long an admitted buyer may grab before the next is admitted instead',
  })
  @IsOptional()
  @IsInt()
  @Min(windowMs.min)
  @Max(windowMs.max)
  windowMs?: number;
}

/** The settings a room is created with: the default window when none is given. */
export function roomSettings(dto: RoomSettingsDto | undefined): RoomSettings | undefined {
  return dto && { admitPerSec: dto.admitPerSec, windowMs: dto.windowMs ?? windowMs.default };
}
