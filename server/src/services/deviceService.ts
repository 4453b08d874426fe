import type { RegisterTokenBody } from '#schemas/mobile';
import type { User } from '#schemas/user';
import { pushTokenRepository } from '../repositories/pushTokenRepository.ts';
import type { ServiceContext } from './context.ts';

/** Push tokens kept per person: a new device beyond these drops the least recently registered (decision 017). */
export const PUSH_TOKENS_PER_PERSON = 10;

/** The mobile apps' devices: push tokens kept per user and device. */
export function createDeviceService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /** Keeps the device's token for the caller (a token moves to whoever signed in on the device last). */
    register(actor: User, body: RegisterTokenBody): Promise<void> {
      return pushTokenRepository.register(db, actor.id, body, PUSH_TOKENS_PER_PERSON);
    },

    /** Forgets the caller's token of this device (at sign-out). */
    unregister(actor: User, fcmToken: string): Promise<void> {
      return pushTokenRepository.unregister(db, actor.id, fcmToken);
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
