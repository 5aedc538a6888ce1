import { hash, verify } from '@node-rs/argon2';

/** Argon2id (the library's default algorithm) with its default cost; the PHC string records both. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a hash that cannot be read: either way, not signed in. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
