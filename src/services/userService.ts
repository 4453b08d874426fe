import { SignInMethodListSchema, type SignInMethodList } from '../schemas/sso.ts';
import { UserListResponseSchema, UserSchema, type CreateUserBody, type User } from '../schemas/user.ts';
import { api } from './api.ts';
import { ApiError } from './errors.ts';

/**
 * Every account (researchers). A 403 means "not a researcher" and gives an empty list (spec §8).
 * @throws other ApiErrors.
 */
export async function listUsers(query: { role_ne?: number } = {}, signal?: AbortSignal): Promise<User[]> {
  try {
    return await api().request({
      method: 'GET',
      path: '/users',
      schema: UserListResponseSchema,
      ...(query.role_ne !== undefined ? { query: { role_ne: query.role_ne } } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return [];
    throw error;
  }
}

/** Blocks or unblocks an account. */
export function setUserBlocked(id: number, blocked: boolean, signal?: AbortSignal): Promise<User> {
  return api().request({
    method: 'PUT',
    path: `/users/${id}`,
    body: { blocked },
    schema: UserSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Creates an account; its owner gets a set-password e-mail. */
export function createUser(body: CreateUserBody, signal?: AbortSignal): Promise<User> {
  return api().request({
    method: 'POST',
    path: '/invitations/outside',
    body,
    schema: UserSchema,
    ...(signal ? { signal } : {}),
  });
}

/** How an account signs in: whether it has a password, and its linked single sign-on identities (researchers). */
export function listSignInMethods(userId: number, signal?: AbortSignal): Promise<SignInMethodList> {
  return api().request({
    method: 'GET',
    path: `/users/${userId}/sign-in-methods`,
    schema: SignInMethodListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Unlinks one single sign-on identity from an account; the answer is the account's remaining methods. */
export function unlinkIdentity(userId: number, identityId: number, signal?: AbortSignal): Promise<SignInMethodList> {
  return api().request({
    method: 'DELETE',
    path: `/users/${userId}/identities/${identityId}`,
    schema: SignInMethodListSchema,
    ...(signal ? { signal } : {}),
  });
}
