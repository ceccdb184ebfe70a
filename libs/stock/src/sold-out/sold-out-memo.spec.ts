import { SoldOutMemo } from './sold-out-memo';

describe('SoldOutMemo', () => {
  const listening = () => {
    const memo = new SoldOutMemo();
    memo.listeningStarted();
    return memo;
  };

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
        memo.listeningStarted();
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
    const memo = new SoldOutMemo();
    memo.markSoldOut(memo.ticket(7));
    expect(memo.isSoldOut(7)).toBe(false);
    memo.listeningStarted();
    memo.markSoldOut(memo.ticket(7));
    memo.listeningStopped();
    expect(memo.isSoldOut(7)).toBe(false);
    memo.listeningStarted();
    expect(memo.isSoldOut(7)).toBe(false);
    expect(memo.size).toBe(0);
  });
});
