export * from './redis-stock';
export * from './reconcile';
export { defineStockCommands, stockKeys, type StockKeys } from './redis-stock-commands';
