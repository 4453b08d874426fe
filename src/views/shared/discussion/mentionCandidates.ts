import { createContext } from 'react';

/** Someone who can be mentioned. */
export interface MentionCandidate {
  id: number;
  username: string;
}

/**
 * The people a comment box below may mention (the shared portfolio's members, without the viewer);
 * `null`: the boxes below offer no mentions. Apart from the comment box, which loads on first use.
 */
export const MentionCandidatesContext = createContext<readonly MentionCandidate[] | null>(null);
