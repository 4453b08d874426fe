import { lazyValue } from '../../views/components/lazyParts.tsx';

/**
 * The video moments logic (players, notes, the caption editor) loaded on first use: a bundle chunk
 * of its own, so that the portfolio pages load without it (`MomentsContext` takes this loader).
 */
export const loadMoments = lazyValue(async () => (await import('./videoMoments.ts')).provideMoments());
