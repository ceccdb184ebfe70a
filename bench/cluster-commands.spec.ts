import { commandsBetween } from './cluster-commands';

describe('commandsBetween', () => {
  it('subtracts per master, counting a master seen only after from zero', () => {
    expect(commandsBetween({ a: 10, b: 5 }, { a: 25, b: 5, c: 7 })).toEqual({ a: 15, b: 0, c: 7 });
  });
});
