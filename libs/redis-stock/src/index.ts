export * from './redis-stock';
export * from './reconcile';
export {
  defineStockCommands,
  RESERVATION_MS,
  reservationUser,
  stockKeys,
  type StockKeys,
} from './redis-stock-commands';
export {
  defineOrderCommands,
  orderKeys,
  ORDER_STREAM_PATTERN,
  orderStreamCoupon,
  type OrderKeys,
} from './order-commands';
export * from './order-desk';
export * from './order-persister';
export { awaitOrderDrain, type DrainedStream, type DrainWait } from './order-drain';
export * from './persister-options';
export * from './room';
