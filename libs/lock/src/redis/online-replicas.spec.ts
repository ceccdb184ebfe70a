import { onlineReplicasIn } from './online-replicas';

const info = (...lines: string[]) => ['# Replication', ...lines, 'master_repl_offset:850', ''].join('\r\n');

describe('onlineReplicasIn', () => {
  it.each([
    [
      'counts the replicas in state online',
      [
        'slave0:ip=127.0.0.1,port=6380,state=online,offset=850,lag=0',
        'slave1:ip=127.0.0.1,port=6381,state=online,offset=850,lag=1',
      ],
      2,
    ],
    [
      'leaves out a replica still waiting for or loading its first full sync',
      [
        'slave0:ip=127.0.0.1,port=6380,state=wait_bgsave,offset=0,lag=0',
        'slave1:ip=127.0.0.1,port=6381,state=send_bulk,offset=0,lag=0',
        'slave2:ip=127.0.0.1,port=6382,state=online,offset=850,lag=0',
      ],
      1,
    ],
  ])('%s', (_name, replicas, online) => {
    expect(onlineReplicasIn(info('role:master', `connected_slaves:${replicas.length}`, ...replicas))).toBe(online);
  });

  it('finds none on a primary without replicas, or on a replica', () => {
    expect(onlineReplicasIn(info('role:master', 'connected_slaves:0'))).toBe(0);
    expect(onlineReplicasIn(info('role:slave', 'master_link_status:up', 'connected_slaves:0'))).toBe(0);
  });
});
