import { randomBytes } from 'node:crypto';
import type { CommandResult } from './command';

/** 32 random bytes, Base64url: 43 characters, well over the gateway's 32-character minimum. */
export function generateAdminToken(): CommandResult {
  const token = `sg_${randomBytes(32).toString('base64url')}`;
  return { json: { token }, text: token };
}
