import { CodedError } from '@app/errors';

/** The coupon was created without a waiting room. */
export class RoomNotFoundError extends CodedError {
  readonly code = 'ROOM.NOT_FOUND';
  constructor(readonly couponId: number) {
    super(`coupon ${couponId} has no waiting room`);
  }
}

/** No such ticket in the coupon's room. */
export class TicketNotFoundError extends CodedError {
  readonly code = 'TICKET.NOT_FOUND';
  constructor(readonly couponId: number) {
    super(`no such ticket in the room of coupon ${couponId}`);
  }
}

/** A grab on a coupon with a room, without a ticket the room admitted (and whose window is open). */
export class RoomNotAdmittedError extends CodedError {
  readonly code = 'ROOM.NOT_ADMITTED';
  /** The place of the user's ticket while it waits; 0 when it does not wait (none, expired, used). */
  constructor(readonly position: number) {
    super(
      position > 0
        ? `not admitted yet: ${position - 1} ahead in the waiting room`
        : 'no admitted ticket: join the waiting room (POST /coupons/:id/room) first',
    );
  }
}
