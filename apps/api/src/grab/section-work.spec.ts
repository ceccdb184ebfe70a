import { freezeEventLoop, sectionWork } from './section-work';

describe('section work', () => {
  it('freezing blocks timers: a timer due during the freeze fires only after it', async () => {
    let firedAt = 0;
    const start = Date.now();
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        firedAt = Date.now();
        resolve();
      }, 5),
    );
    freezeEventLoop(60);
    await timer;
    expect(firedAt - start).toBeGreaterThanOrEqual(55);
  });

  it('pausing lets timers run meanwhile', async () => {
    // Ordered, not timed: a timer due at once fires during a pause; a blocking one would resume first.
    let fired = false;
    setTimeout(() => (fired = true), 0);
    await sectionWork({ pauseMs: 60 })();
    expect(fired).toBe(true);
  });

  it('freezing does not: the caller resumes before a timer due at once', async () => {
    let fired = false;
    setTimeout(() => (fired = true), 0);
    await sectionWork({ freezeMs: 20 })();
    expect(fired).toBe(false);
  });
});
