import { runStockMigrations } from '@app/stock';
import { loadMigrationConfig } from './config/app-config';

/** Applies the schema migrations once, before the replicas start (compose's `migrate` service). */
async function main(): Promise<void> {
  const ran = await runStockMigrations(loadMigrationConfig().databaseUrl);
  console.log(ran.length ? `migrations applied: ${ran.join(', ')}` : 'schema up to date');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
