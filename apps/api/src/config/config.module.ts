import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Parses the environment once; everything else injects AppConfig. */
@Global()
@Module({ providers: [{ provide: AppConfig, useFactory: () => loadConfig() }], exports: [AppConfig] })
export class ConfigModule {}
