export * from './answers';
export * from './errors';
export * from './strategy-names';
export * from './grab-options';
export * from './client-errors';
export * from './api-client';
