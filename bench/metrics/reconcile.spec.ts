import { reconcile } from './reconcile';

describe('reconcile', () => {
  it('matches when every 200 seen is a grant row', () => {
    expect(reconcile(120, 120, 0)).toEqual({ grantedSeen: 120, grantsInDb: 120, matches: true, unanswered: 0 });
  });

  it('flags grants the client never saw', () => {
    const r = reconcile(118, 120, 2);
    expect(r.matches).toBe(false);
    expect(r.unanswered).toBe(2);
  });

  it('flags 200s without a grant row', () => {
    expect(reconcile(121, 120, 0).matches).toBe(false);
  });
});
