import { AdminToken } from './admin-token';

describe('AdminToken', () => {
  const token = new AdminToken('lab-admin-token');

  it('accepts only the bearer token itself', () => {
    expect(token.matches('Bearer lab-admin-token')).toBe(true);
    expect(token.matches('Bearer lab-admin-tokeN')).toBe(false);
    expect(token.matches('Bearer lab-admin-token ')).toBe(false);
    expect(token.matches('lab-admin-token')).toBe(false);
    expect(token.matches('Bearer ')).toBe(false);
    expect(token.matches(undefined)).toBe(false);
  });

  it('throws the 401 error for anything else', () => {
    expect(() => token.assert('Bearer nope')).toThrow(expect.objectContaining({ code: 'AUTH.UNAUTHORIZED' }) as Error);
    expect(() => token.assert('Bearer lab-admin-token')).not.toThrow();
  });
});
