import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listenConf, SHARED_CONF, upstreamConf } from './nginx-server';

describe('nginx configuration', () => {
  it('generates an upstream of every replica with keepalive', () => {
    const conf = upstreamConf(['127.0.0.1:23001', '127.0.0.1:23002', '127.0.0.1:23003'], '127.0.0.1:28090');
    expect(conf.match(/^\s+server 127\.0\.0\.1:2300[123] max_fails=0;$/gm)).toHaveLength(3);
    expect(conf).toMatch(/^\s+keepalive \d+;$/m);
    expect(conf).toMatch(/upstream lab \{\s+server 127\.0\.0\.1:28090 max_fails=0;\s+keepalive \d+;\s+\}/);
    expect(listenConf(28080)).toContain('listen 127.0.0.1:28080;');
  });

  it('shares one nginx.conf whose per-environment parts are the two includes compose also ships', () => {
    const shared = readFileSync(SHARED_CONF, 'utf8');
    for (const directive of [
      'daemon off;',
      'include upstream.conf;',
      'include listen.conf;',
      'client_max_body_size 16k;',
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_pass http://api;',
      'proxy_pass http://lab;',
      'proxy_buffering off;',
    ]) {
      expect(shared).toContain(directive);
    }
    const compose = join(SHARED_CONF, '..', 'compose');
    expect(readFileSync(join(compose, 'upstream.conf'), 'utf8')).toMatch(
      /upstream api \{[^}]*server api-1:3000[^}]*keepalive/,
    );
    expect(readFileSync(join(compose, 'upstream.conf'), 'utf8')).toMatch(/upstream lab \{[^}]*server lab:3000/);
    expect(readFileSync(join(compose, 'listen.conf'), 'utf8')).toMatch(/^listen 8080;$/m);
  });
});
