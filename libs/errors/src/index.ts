export * from './coded-error';
