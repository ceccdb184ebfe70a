import { runStockMigrations } from '@app/stock';

/** Applies the schema migrations once, before the replicas start (compose's `migrate` service). */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:25432/oversell';
  const ran = await runStockMigrations(url);
  console.log(ran.length ? `migrations applied: ${ran.join(', ')}` : 'schema up to date');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
