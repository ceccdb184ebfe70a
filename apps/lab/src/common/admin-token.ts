import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '@app/apps-common';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The admin token the page sends before a fault, checked in constant time: both sides are hashed
 * first, so the comparison takes the same time whatever the length or the first wrong character.
 */
export class AdminToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  /** True when `authorization` is `Bearer <the token>`. */
  matches(authorization: string | undefined): boolean {
    const match = /^Bearer (.+)$/.exec(authorization ?? '');
    const given = digest(match ? match[1] : '');
    return timingSafeEqual(given, this.expected) && match !== null;
  }

  assert(authorization: string | undefined): void {
    if (!this.matches(authorization))
      throw new UnauthorizedError('this needs the admin token: Authorization: Bearer <ADMIN_TOKEN>');
  }
}
