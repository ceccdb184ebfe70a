import type { SupervisedReplica } from './servers/replica';
import type { StackInfo } from './stack-file';

/** stack.json plus what the control endpoint knows: restarts per replica and which servers run. */
export function stackState(info: StackInfo, replicas: readonly SupervisedReplica[]) {
  const running = (pid: number | undefined) => pid !== undefined;
  const { postgres, redis, redlock, nginx, lab } = info.pids;
  return {
    ...info,
    replicas: replicas.map((r) => ({ id: r.id, url: r.url, pid: r.pid ?? 0, restarts: r.restarts })),
    running: {
      postgres: running(postgres),
      redis: Object.values(redis).every(running),
      redlock: redlock.map(running),
      nginx: running(nginx),
      lab: running(lab),
    },
  };
}
