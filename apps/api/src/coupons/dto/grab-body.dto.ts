import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class GrabBodyDto {
  @ApiProperty({ pattern: '^[A-Za-z0-9_.:-]{1,64}$', example: 'user-42' })
  @IsString()
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'userId must be 1-64 characters of A-Z a-z 0-9 _ . : -' })
  userId: string;
}
