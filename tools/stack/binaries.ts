import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** PostgreSQL 15 as on Debian 12; else the newest installed (Ubuntu ships 14 or 16); PG_BIN overrides. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const installed = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    : [];
  const version = installed.includes('15') ? '15' : (installed.sort((a, b) => Number(b) - Number(a))[0] ?? '15');
  return join(root, version, 'bin');
}

export const PG_BIN = process.env.PG_BIN || postgresBin();

/** The binaries the stack runs, and the Debian package that provides each. */
const REQUIRED: Array<{ binary: string; pkg: string }> = [
  { binary: join(PG_BIN, 'initdb'), pkg: 'postgresql-15' },
  { binary: join(PG_BIN, 'postgres'), pkg: 'postgresql-15' },
  { binary: 'redis-server', pkg: 'redis-server' },
  { binary: 'nginx', pkg: 'nginx-light' },
];

function findOnPath(binary: string): string | undefined {
  const candidates = binary.includes('/')
    ? [binary]
    : [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'].map((dir) => join(dir, binary));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Absolute path of a binary (nginx lives in /usr/sbin, often off a user's PATH). */
export function binaryPath(binary: string): string {
  return findOnPath(binary) ?? binary;
}

/** Throws one message naming every missing binary and the package to install. */
export function checkBinaries(): void {
  const missing = REQUIRED.filter(({ binary }) => !findOnPath(binary));
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((m) => m.pkg))];
  throw new Error(
    `missing ${missing.map((m) => m.binary).join(', ')}: install with ` +
      `\`apt-get install -y --no-install-recommends ${pkgs.join(' ')}\``,
  );
}
