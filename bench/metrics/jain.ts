/**
 * Jain's fairness index, (Σx)² / (n·Σx²): 1 when every share is equal, 1/n when one
 * party got everything. An empty or all-zero list counts as fair (nobody was favoured).
 */
export function jainIndex(shares: readonly number[]): number {
  if (shares.length === 0) return 1;
  let sum = 0;
  let sumOfSquares = 0;
  for (const x of shares) {
    sum += x;
    sumOfSquares += x * x;
  }
  return sumOfSquares === 0 ? 1 : (sum * sum) / (shares.length * sumOfSquares);
}
