import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorCode } from '@app/contract';

/** Every error answer's body (the contract's ErrorBody), as the OpenAPI document shows it. */
export class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_STATUS), example: 'STOCK.SOLD_OUT' })
  code: ErrorCode;

  @ApiProperty({ example: 'coupon 1 is sold out' })
  message: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'GRANT.DUPLICATE only: the grant the user already holds',
  })
  grant?: object;

  @ApiPropertyOptional({ description: 'ORDER.DEAD_LETTERED only: the accepted order that was given up' })
  orderId?: string;

  @ApiPropertyOptional({ description: 'ORDER.DEAD_LETTERED only: why it was given up' })
  reason?: string;

  @ApiPropertyOptional({ description: "ROOM.NOT_ADMITTED only: the user's ticket's place while it waits, else 0" })
  position?: number;
}

/**
 * The error answers of one endpoint, grouped by status from the contract's table; every endpoint
 * may also answer 500 INTERNAL.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'INTERNAL' as const]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, list]) => ApiResponse({ status, description: list.join(', '), type: ErrorBodyDto })),
  );
}
