/**
 * The base of every error the libraries and apps raise on purpose: `code` is stable and meant for
 * machines (`STOCK.SOLD_OUT`), `name` is the class's own for logs. It knows nothing of HTTP: the app
 * that answers maps classes to statuses.
 */
export abstract class CodedError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
