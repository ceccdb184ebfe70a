import { DependencyError } from './lab.errors';

/** POSTs to the local stack's control endpoint (kill a replica, stop and start Redis or PostgreSQL). */
export function controlClient(baseUrl: string): (path: string) => Promise<unknown> {
  return async (path) => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, { method: 'POST', signal: AbortSignal.timeout(120_000) });
    } catch (error) {
      throw new DependencyError(`the control endpoint did not answer POST ${path}: ${(error as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new DependencyError(`the control endpoint answered POST ${path} with ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}
