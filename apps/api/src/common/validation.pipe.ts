import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { RequestInvalidError } from '@app/apps-common';

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((m) => (prefix ? `${prefix}.${m}` : m)),
    ...describe(e.children ?? [], prefix ? `${prefix}.${e.property}` : e.property),
  ]);
}

/** class-validator with the contract's error shape; bodies must be JSON objects. */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new RequestInvalidError(describe(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new RequestInvalidError('the body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}
