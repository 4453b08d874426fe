import { z } from 'zod';
import { absoluteUrl } from './envValues.ts';

/** The environment variables of push to the mobile apps (`FCM_*`). */
export const PushEnvSchema = z.object({
  FCM_PROJECT_ID: z
    .string()
    .regex(/^[a-z0-9-]{1,100}$/, 'must be a Firebase project id (lower-case letters, digits, -)')
    .optional(),
  FCM_CLIENT_EMAIL: z.email({ error: "must be the service account's e-mail address" }).optional(),
  FCM_PRIVATE_KEY: z
    .string()
    .includes('PRIVATE KEY', { error: "must be the service account's PEM private key" })
    .optional(),
  FCM_ENDPOINT: absoluteUrl.optional(),
  FCM_TOKEN_URL: absoluteUrl.optional(),
});

type PushEnv = z.infer<typeof PushEnvSchema>;

/** A Firebase service account for FCM HTTP v1 (`FCM_*`); the endpoints are Google's unless overridden. */
export interface FcmConfig {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  endpoint: string;
  tokenUrl: string;
}

/**
 * What is wrong with the `FCM_*` variables taken together (each alone is checked by
 * `PushEnvSchema`), as a line of the configuration error; `null` when nothing is.
 */
export function pushEnvProblem(e: PushEnv): string | null {
  const fcmParts = [e.FCM_PROJECT_ID, e.FCM_CLIENT_EMAIL, e.FCM_PRIVATE_KEY];
  if (fcmParts.some((v) => v !== undefined) && fcmParts.some((v) => v === undefined))
    return 'FCM_PROJECT_ID, FCM_CLIENT_EMAIL, FCM_PRIVATE_KEY: set all three for push notifications, or none';
  return null;
}

/** The service account push is sent with; `null`: no push. */
export function fcmSettings(e: PushEnv): FcmConfig | null {
  return e.FCM_PROJECT_ID && e.FCM_CLIENT_EMAIL && e.FCM_PRIVATE_KEY
    ? {
        projectId: e.FCM_PROJECT_ID,
        clientEmail: e.FCM_CLIENT_EMAIL,
        // Environments often carry the PEM on one line with "\n" for its line breaks.
        privateKey: e.FCM_PRIVATE_KEY.replace(/\\n/g, '\n'),
        endpoint: (e.FCM_ENDPOINT ?? 'https://fcm.googleapis.com').replace(/\/+$/, ''),
        tokenUrl: e.FCM_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      }
    : null;
}
