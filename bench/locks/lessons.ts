import { num as count } from '../../tools/report/format';
import type { Lesson } from '../types';
import type { LockBenchResult } from './aggregate';

const OURS = 'owner-checked';
/** Jain's index from which the grants count as evenly shared. */
const FAIR_JAIN = 0.95;
const share = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/** A lesson; when it did not hold, its sentence ends with the two numbers that show it. */
function lesson(id: string, held: boolean, text: string, numbers: string): Lesson {
  return { id, text: held ? text : `${text} Not in this run: ${numbers}.`, held };
}

/** Pure: what this run's rows and the section alone teach (at most 4). */
export function lockLessons(results: readonly LockBenchResult[], sectionPerSec?: number): Lesson[] {
  const ours = results.find((r) => r.contender === OURS);
  const ablation = results.find((r) => r.contender === `${OURS}:no-local-handoff`);
  const peers = results.filter((r) => !r.ours); // at their defaults
  const peer = [...peers].sort((a, b) => b.grantsPerSec - a.grantsPerSec)[0]; // the fastest
  const patient = [...peers].sort((a, b) => a.maxWaitMs - b.maxWaitMs)[0]; // the shortest longest wait
  if (!ours || !peer) return [];
  const [rate, jain, peerRate] = [ours.grantsPerSec, ours.jain.toFixed(2), peer.grantsPerSec];
  const fast = rate >= peerRate;
  const fair =
    `A fair lock need not be slow: ${OURS} ${count(rate)} grants/s with Jain ${jain}, against ` +
    `${count(peerRate)} and Jain ${peer.jain.toFixed(2)} for ${peer.contender}, the fastest peer.`;
  const unfair = fast ? `Jain ${jain} against ${FAIR_JAIN}` : `${count(rate)} against ${count(peerRate)} grants/s`;
  const lessons = [lesson('fair-and-fast', fast && ours.jain >= FAIR_JAIN, fair, unfair)];
  if (ablation) {
    const without = ablation.grantsPerSec;
    const text =
      'Handing the lock to the next waiter in the same process, with no trip through Redis, is where the ' +
      `speed comes from: ${OURS} ${count(rate)} grants/s against ${count(without)} without it ` +
      `(${(rate / Math.max(without, 1)).toFixed(1)}×).`;
    lessons.push(lesson('local-handoff', rate > without, text, `${count(rate)} with it, ${count(without)} without`));
  }
  if (sectionPerSec) {
    const text =
      "A lock taken through Redis for every grant adds at least one round trip to the section's two, so it runs " +
      'at two thirds of the section alone at most: ' +
      `${peer.contender}, the fastest peer, ran at ${share(peerRate, sectionPerSec)} of the section alone with ` +
      `no lock (${count(peerRate)} of ${count(sectionPerSec)}/s); ${OURS} at ${share(rate, sectionPerSec)}.`;
    const numbers = `${count(peerRate)} grants/s against two thirds of ${count(sectionPerSec)}`;
    // Acquire is the round trip every grant adds; the release can overlap the next waiter's acquire.
    lessons.push(lesson('lock-cost', peerRate * 3 <= sectionPerSec * 2, text, numbers));
  }
  const [waited, peerWaited] = [ours.maxWaitMs, patient.maxWaitMs];
  const text =
    `Waiting in a queue keeps every wait short: ${OURS}'s longest wait was ${count(waited)} ms, against ` +
    `${count(peerWaited)} ms at best for the peers (${patient.contender}), whose waiters retry on a timer.`;
  const numbers = `${count(waited)} against ${count(peerWaited)} ms`;
  return [...lessons, lesson('queue-bounds-waits', waited < peerWaited, text, numbers)];
}
