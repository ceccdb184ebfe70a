export * from './env';
export * from './json-error.filter';
