// A bare node:http server that answers every request with the bytes it is given: the floor under
// the framework's cost. Run as a child of the bench (fork, IPC): it receives `{ body, replica }`,
// listens on a free port of 127.0.0.1 and sends back `{ port }`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

process.once('message', ({ body, replica }: { body: string; replica: string }) => {
  const bytes = Buffer.from(body);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
    'x-replica': replica,
  };
  const server = createServer((_req, res) => res.writeHead(200, headers).end(bytes));
  // As the replicas: outlast nginx's idle upstream connections.
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
});
process.once('disconnect', () => process.exit(0));
