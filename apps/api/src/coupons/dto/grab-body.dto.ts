import { ApiProperty } from '@nestjs/swagger';

export const USER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

export class GrabBodyDto {
  @ApiProperty({ pattern: USER_ID.source, example: 'user-42' })
  userId: string;
}
