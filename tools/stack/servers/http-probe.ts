import { request } from 'node:http';

/** The status of a GET to `url`, or 0 when nothing answers within `timeoutMs`. */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}
