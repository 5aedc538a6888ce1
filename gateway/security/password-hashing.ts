import { hash } from '@node-rs/argon2';

/** Argon2id (the library's default algorithm) with its default cost; the PHC string records both. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}
