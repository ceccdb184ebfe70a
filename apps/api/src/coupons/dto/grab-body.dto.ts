import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TICKET } from '@app/contract';

export const USER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

export class GrabBodyDto {
  @ApiProperty({ pattern: USER_ID.source, example: 'user-42' })
  userId: string;

  @ApiPropertyOptional({
    pattern: TICKET.source,
    description: "coupons with a waiting room: the user's admitted ticket (POST /coupons/:id/room)",
  })
  ticket?: string;
}
