import { CodedError } from './coded-error';

class ExampleError extends CodedError {
  readonly code = 'EXAMPLE.FAILED';
}

describe('CodedError', () => {
  it('names the error after its class and keeps code, message and cause', () => {
    const cause = new Error('underneath');
    const error = new ExampleError('it failed', { cause });
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExampleError');
    expect(error.code).toBe('EXAMPLE.FAILED');
    expect(error.message).toBe('it failed');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('ExampleError: it failed');
  });
});
