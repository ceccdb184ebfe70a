/** One invariant of a fault run, with the figures that decide it. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** The first few of `users`, for a detail. */
export const firstFew = (users: readonly string[]): string =>
  `${users.slice(0, 5).join(', ')}${users.length > 5 ? ', …' : ''}`;
