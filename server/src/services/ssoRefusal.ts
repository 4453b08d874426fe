import type { SsoErrorCode } from '#schemas/sso';

/** A sign-in that ends on the login page with a message (`code`); `reason` goes to the log only. */
export class SsoRefusal extends Error {
  override name = 'SsoRefusal';
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}
