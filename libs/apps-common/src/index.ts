export * from './env';
export * from './json-error.filter';
export * from './shared.errors';
export * from './framework-error';
