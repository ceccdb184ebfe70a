import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { UnauthorizedError } from '@app/apps-common';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The admin token's check; compared in constant time (digests have equal length). */
export class AdminToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  assert(authorization: string | undefined, what = 'this endpoint'): void {
    const match = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]), this.expected))
      throw new UnauthorizedError(`${what} needs Authorization: Bearer <admin token>`);
  }
}

/** Admin endpoints need the bearer token. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly token: AdminToken;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.token = new AdminToken(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    this.token.assert(
      context.switchToHttp().getRequest<{ headers: { authorization?: string } }>().headers.authorization,
    );
    return true;
  }
}
