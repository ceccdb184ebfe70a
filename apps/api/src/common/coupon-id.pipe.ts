import { Injectable, type PipeTransform } from '@nestjs/common';
import { RequestInvalidError } from '@app/apps-common';

const MAX_ID = 2_147_483_647;

/** A coupon id is a positive 32-bit integer written in plain digits. */
@Injectable()
export class CouponIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_ID) {
      throw new RequestInvalidError(`coupon id must be an integer from 1 to ${MAX_ID}`);
    }
    return Number(value);
  }
}
