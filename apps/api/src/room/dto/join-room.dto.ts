import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { USER_ID } from '../../coupons/dto/grab-body.dto';
import { USER_ID_MESSAGE } from '../../coupons/grab-request.pipe';

export class JoinRoomDto {
  @ApiProperty({ pattern: USER_ID.source, example: 'user-42' })
  @IsString({ message: USER_ID_MESSAGE })
  @Matches(USER_ID, { message: USER_ID_MESSAGE })
  userId: string;
}
