import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AppConfig } from './app-config';

/** The configuration main.ts parsed once, for everything else to inject as AppConfig. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
