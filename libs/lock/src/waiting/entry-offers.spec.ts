import { EntryOffers } from './entry-offers';

describe('EntryOffers', () => {
  it('gives a holder of the same kind the offered entry once, and tells the head what its release did', async () => {
    const offers = new EntryOffers();
    const offer = offers.offer('lock:{r}', 'owner-checked', 'w2');
    expect(offers.take('lock:{r}', 'reentrant')).toBeUndefined(); // another kind of lock: not its entry
    expect(offer.isTaken).toBe(false);
    expect(offers.take('lock:{r}', 'owner-checked')).toBe(offer);
    expect(offer.isTaken).toBe(true);
    expect(offers.take('lock:{r}', 'owner-checked')).toBeUndefined();
    offer.settled(true);
    await expect(offer.queued).resolves.toBe(true);
  });

  it('takes an entry not yet taken, and makes its promise only then', async () => {
    const offers = new EntryOffers();
    const offer = offers.offer('lock:{r}', 'owner-checked', 'w1');
    expect(offer.queued).toBeUndefined();
    offers.take('lock:{r}', 'owner-checked');
    offer.settled(undefined);
    await expect(offer.queued).resolves.toBeUndefined(); // the release failed: unsure
    offers.offer('lock:{r}', 'owner-checked', 'w2');
    offers.forget('lock:{r}'); // its line is gone
    expect(offers.take('lock:{r}', 'owner-checked')).toBeUndefined();
  });

  it('lets a head withdraw an offer nobody took, without touching a newer head’s', () => {
    const offers = new EntryOffers();
    const old = offers.offer('lock:{r}', 'fenced', 'w1');
    offers.withdraw('lock:{r}', old);
    expect(offers.take('lock:{r}', 'fenced')).toBeUndefined();
    const older = offers.offer('lock:{r}', 'fenced', 'w2');
    const newer = offers.offer('lock:{r}', 'fenced', 'w3');
    offers.withdraw('lock:{r}', older);
    expect(offers.take('lock:{r}', 'fenced')).toBe(newer);
  });
});
