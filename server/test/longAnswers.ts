/** Plain words a teacher's long answer is made of (text compresses as real answers do). */
const WORDS = [
  'slope',
  'ramp',
  'friction',
  'students',
  'compare',
  'the',
  'ball',
  'rolls',
  'faster',
  'measure',
  'time',
  'why',
];

/**
 * A maker of long answers of `chars` characters: each call gives the next one of a fixed sequence
 * from `seed` (the same answers in every run).
 */
export function longAnswerMaker(seed: number, chars = 2500): () => string {
  let state = seed;
  return () =>
    Array.from({ length: Math.ceil(chars / 4) }, () => WORDS[(state = (state * 48_271) % 2_147_483_647) % WORDS.length])
      .join(' ')
      .slice(0, chars);
}
