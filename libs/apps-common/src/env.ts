/**
 * Parsers of the environment both apps share. They read only the object they are given: the apps
 * call them once at start with process.env; libraries never do.
 */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function envBool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', ''].includes(raw)) throw new Error(`${name} must be true or false, got "${raw}"`);
  return raw === 'true' || raw === '1';
}

/** The admin bearer token: required, and long enough not to be guessed by hand. */
export function envAdminToken(env: NodeJS.ProcessEnv): string {
  const token = env.ADMIN_TOKEN ?? '';
  if (token.length < 8) throw new Error('ADMIN_TOKEN must be set (8 characters or more)');
  return token;
}
