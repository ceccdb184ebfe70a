import { SoldOutMemo } from './sold-out-memo';

describe('SoldOutMemo', () => {
  let clock = 0;
  const now = () => clock;
  const listening = () => {
    const memo = new SoldOutMemo(3000, now);
    memo.listeningStarted(clock);
    return memo;
  };
  beforeEach(() => {
    clock = 1000;
  });

  it('remembers a coupon seen sold out', () => {
    const memo = listening();
    memo.markSoldOut(memo.ticket(7));
    expect(memo.isSoldOut(7)).toBe(true);
    expect(memo.isSoldOut(8)).toBe(false);
  });

  it('forgets a coupon once its reset is heard', () => {
    const memo = listening();
    memo.markSoldOut(memo.ticket(7));
    memo.reset(7);
    expect(memo.isSoldOut(7)).toBe(false);
  });

  // A ticket taken for coupon 7, then something heard before the grab reports it sold out.
  it.each([
    {
      what: 'refuses a grab that began before a reset: it may have read the stock from before it',
      between: (memo: SoldOutMemo) => memo.reset(7),
      honoured: false,
    },
    {
      what: 'a reset of another coupon does not void the ticket',
      between: (memo: SoldOutMemo) => memo.reset(8),
      honoured: true,
    },
    {
      what: 'refuses a grab that began in an earlier listening session (a reset may have gone unheard)',
      between: (memo: SoldOutMemo) => {
        memo.listeningStopped();
        memo.listeningStarted(clock);
      },
      honoured: false,
    },
  ])('$what', ({ between, honoured }) => {
    const memo = listening();
    const ticket = memo.ticket(7);
    between(memo);
    memo.markSoldOut(ticket);
    expect(memo.isSoldOut(7)).toBe(honoured);
    // A grab that begins afterwards is trusted again.
    memo.markSoldOut(memo.ticket(7));
    expect(memo.isSoldOut(7)).toBe(true);
  });

  it('trusts nothing while not listening, and forgets everything when listening stops', () => {
    const memo = new SoldOutMemo(3000, now);
    memo.markSoldOut(memo.ticket(7));
    expect(memo.isSoldOut(7)).toBe(false);
    memo.listeningStarted(clock);
    memo.markSoldOut(memo.ticket(7));
    memo.listeningStopped();
    expect(memo.isSoldOut(7)).toBe(false);
    memo.listeningStarted(clock);
    expect(memo.isSoldOut(7)).toBe(false);
    expect(memo.size).toBe(0);
  });

  it('stops answering from memory once the session has not proved alive for trustMs (half-open, or frozen)', () => {
    const memo = listening();
    memo.markSoldOut(memo.ticket(7));
    clock += 2000;
    memo.confirmed(clock - 100); // a heartbeat sent 100 ms ago was answered
    clock += 2899;
    expect(memo.isSoldOut(7)).toBe(true);
    clock += 1; // 3000 ms after that heartbeat was sent: no answer since
    expect(memo.isSoldOut(7)).toBe(false);
    memo.confirmed(clock); // answered again: every reset before it was heard, so the memo stands
    expect(memo.isSoldOut(7)).toBe(true);
  });

  it('does not let an older heartbeat shorten the trust', () => {
    const memo = listening();
    memo.markSoldOut(memo.ticket(7));
    memo.confirmed(clock + 1000);
    memo.confirmed(clock);
    clock += 3500;
    expect(memo.isSoldOut(7)).toBe(true);
  });
});
