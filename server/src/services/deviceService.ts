import type { RegisterTokenBody } from '#schemas/mobile';
import type { User } from '#schemas/user';
import { pushTokenRepository } from '../repositories/pushTokenRepository.ts';
import type { ServiceContext } from './context.ts';

/** The mobile apps' devices: push tokens kept per user and device. */
export function createDeviceService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /** Keeps the device's token for the caller (a token moves to whoever signed in on the device last). */
    register(actor: User, body: RegisterTokenBody): Promise<void> {
      return pushTokenRepository.register(db, actor.id, body);
    },

    /** Forgets the caller's token of this device (at sign-out). */
    unregister(actor: User, fcmToken: string): Promise<void> {
      return pushTokenRepository.unregister(db, actor.id, fcmToken);
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
