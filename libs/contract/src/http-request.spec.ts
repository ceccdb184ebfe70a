import { errorCodeOf } from './http-request';

describe('errorCodeOf', () => {
  it('reads the code of a contract error body, nothing else', () => {
    expect(errorCodeOf('{"code":"STOCK.SOLD_OUT","message":"sold out"}')).toBe('STOCK.SOLD_OUT');
    expect(errorCodeOf('{"code":42}')).toBeUndefined();
    expect(errorCodeOf('null')).toBeUndefined();
    expect(errorCodeOf('<html>')).toBeUndefined();
  });
});
