import { Body, Controller, Get, HttpCode, Param, Post, UsePipes } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { RoomTicket, TicketState } from '@app/contract';
import { ApiErrors } from '../common/api-errors.decorator';
import { CouponIdPipe } from '../common/coupon-id.pipe';
import { AppValidationPipe } from '../common/validation.pipe';
import { TicketPipe } from '../coupons/grab-request.pipe';
import { JoinRoomDto } from './dto/join-room.dto';
import { RoomGate } from './room-gate';

/** A coupon's waiting room: join for a ticket, poll it until admitted, then grab with it. */
@ApiTags('room')
@Controller('coupons/:id/room')
export class RoomController {
  constructor(private readonly room: RoomGate) {}

  @Post()
  @HttpCode(202)
  @UsePipes(AppValidationPipe)
  @ApiOperation({ summary: 'Join the waiting room: a ticket in arrival order (the same user gets the same one)' })
  @ApiAcceptedResponse({ description: '{ ticket, position, etaMs } (position from 1)' })
  @ApiErrors(
    'REQUEST.INVALID',
    'REQUEST.TOO_LARGE',
    'COUPON.NOT_FOUND',
    'ROOM.NOT_FOUND',
    'STOCK.SOLD_OUT',
    'DEPENDENCY.UNAVAILABLE',
  )
  join(@Param('id', CouponIdPipe) id: number, @Body() body: JoinRoomDto): Promise<RoomTicket> {
    return this.room.join(id, body.userId);
  }

  @Get(':ticket')
  @ApiOperation({ summary: 'What a ticket is now: waiting, admitted (grab before `until`), sold-out or expired' })
  @ApiOkResponse({
    description:
      '{ state: "waiting", position, etaMs }, { state: "admitted", until }, { state: "sold-out" } or { state: "expired" }',
  })
  @ApiErrors('REQUEST.INVALID', 'COUPON.NOT_FOUND', 'ROOM.NOT_FOUND', 'TICKET.NOT_FOUND', 'DEPENDENCY.UNAVAILABLE')
  state(@Param('id', CouponIdPipe) id: number, @Param('ticket', TicketPipe) ticket: string): Promise<TicketState> {
    return this.room.state(id, ticket);
  }
}
