import { parseArgs } from 'node:util';
import { ApiClient, type ReconcileReport } from '@app/contract';
import { readStack } from './stack/stack';
import { runCommand } from './stack/run-command';

// npm run reconcile -- --coupon ID: compares Redis's stock (redis-lua's counter and reservations)
// with the stock of record in PostgreSQL, and repairs Redis, through the running stack's API.
function render(r: ReconcileReport): string {
  const n = (v: number | null) => (v === null ? 'not loaded' : String(v));
  return [
    `coupon ${r.couponId}: stock of record ${r.stockOfRecord}; Redis counter ${n(r.counterBefore)} → ${n(r.counterAfter)} (${r.counter})`,
    `reservations: ${r.reservations.inFlight} in flight (left alone), ${r.reservations.settled} settled, ${r.reservations.returned} given back`,
    ...(r.actions.length ? r.actions.map((a) => `- ${a}`) : ['nothing to repair']),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { coupon: { type: 'string' } } });
  const couponId = Number(values.coupon);
  if (!Number.isInteger(couponId) || couponId < 1) throw new Error('usage: npm run reconcile -- --coupon ID');
  const stack = await readStack();
  if (!stack) throw new Error('no stack runs (npm run stack:up)');
  const api = new ApiClient({ baseUrl: stack.nginxUrl, adminToken: stack.adminToken });
  console.log(render(await api.reconcile(couponId)));
}

runCommand(main);
