import { startReplica, uniqueResource, type TestReplica } from '../../../../test/redis/lock-kit';
import { currentFlowId } from '../flow-context';

// A flow (Node's async context) costs every promise of the process once entered: only the
// reentrant kinds, whose owner value names the flow, enter one.
let replica: TestReplica;

beforeAll(() => {
  replica = startReplica('api-1');
});
afterAll(() => replica.close());

it.each([
  ['owner-checked', false],
  ['fenced', false],
  ['set-nx-px', false],
  ['reentrant', true],
  ['watchdog', true],
])('%s runs its critical section in a flow: %s', async (name, inFlow) => {
  const options = { leaseMs: 5000, waitMs: 1000 };
  const flow = await replica
    .strategy(name)
    .run(uniqueResource(`flow-${name}`), options, () => Promise.resolve(currentFlowId()));
  expect(flow !== undefined).toBe(inFlow);
});
