import { handedOwner, heldOwner } from './redlock-quorum-calls';

describe('heldOwner', () => {
  it("is the value the nodes hold for the waiter: its own, the swap's, or its run's", () => {
    expect(heldOwner({}, 'w')).toBe('w'); // won by its own attempt
    expect(heldOwner({ handedOff: true }, 'w')).toBe(handedOwner('w')); // swapped to it
    expect(heldOwner({ handedOff: true, runOwner: 'run' }, 'w')).toBe('run'); // handed on within the run
  });
});
