import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { UnauthorizedError } from '@app/apps-common';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Admin endpoints need the bearer token; compared in constant time (digests have equal length). */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header =
      context.switchToHttp().getRequest<{ headers: { authorization?: string } }>().headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), this.expected))
      throw new UnauthorizedError('this endpoint needs Authorization: Bearer <admin token>');
    return true;
  }
}
