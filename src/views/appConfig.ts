import { createContext, useContext } from 'react';
import type { AppConfig } from '../schemas/common.ts';

const FALLBACK: AppConfig = {
  showcaseUrl: null,
  helpUrl: null,
  feedbackUrl: null,
  contactEmail: null,
  researchEmail: null,
  aboutVideoId: null,
  learnMoreUrl: null,
  iosAppUrl: null,
  androidAppUrl: null,
};

/** The run-time configuration (links an operator sets). */
export const AppConfigContext = createContext<AppConfig>(FALLBACK);

/** Reads the run-time configuration. */
export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}
