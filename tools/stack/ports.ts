import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Fails before anything starts when a port is taken, naming the ports. */
export async function assertPortsFree(ports: number[]): Promise<void> {
  const taken = (await Promise.all(ports.map(async (p) => ((await isFree(p)) ? undefined : p)))).filter(
    (p) => p !== undefined,
  );
  if (taken.length > 0) {
    throw new Error(
      `port(s) ${taken.join(', ')} already in use on 127.0.0.1: another stack, or set the *_PORT variables`,
    );
  }
}

export { isFree as isPortFree };
