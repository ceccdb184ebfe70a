// A bare node:http server that answers every request with the bytes it is given: the floor under
// the framework's cost. Run as a child of the bench (fork, IPC): it receives `{ body, replica }`,
// listens on a free port of 127.0.0.1 and sends back `{ port }`.
import { createServer } from 'node:http';

interface Answer {
  readonly body: string;
  readonly replica: string;
}

process.once('message', ({ body, replica }: Answer) => {
  const bytes = Buffer.from(body);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
    'x-replica': replica,
  };
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  });
  // As the replicas: outlast nginx's idle upstream connections.
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
});
process.once('disconnect', () => process.exit(0));
