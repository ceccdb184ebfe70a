import { createServer, type Server } from 'node:net';
import { startRedisServer } from './redis-server';

// A port something already listens on is refused: the stray listener would answer in place of ours.
it('refuses a port that is taken, and starts nothing there', async () => {
  const stray: Server = createServer((socket) => socket.on('error', () => undefined).end('+PONG\r\n'));
  await new Promise<void>((resolve) => stray.listen(0, '127.0.0.1', resolve));
  const { port } = stray.address() as { port: number };
  try {
    await expect(startRedisServer({ port, dir: `.stack/redis-taken-${port}` })).rejects.toThrow(
      `port ${port} is taken`,
    );
  } finally {
    await new Promise((resolve) => stray.close(resolve));
  }
});
