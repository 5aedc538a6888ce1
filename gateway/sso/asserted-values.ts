import { validateCharacters } from '../../schemas/validators/characters';
import { validateEmail } from '../../schemas/validators/email';

/**
 * What an identity provider asserts is input like any other (ADR 0005 "Characters", ADR 0015, ADR 0028): an e-mail
 * address follows registration's rules (SPEC §5: the address pattern, at most 254 characters, so no control
 * character, no bidi override, no 20,000-character address), and no other asserted text (names, NameID, session index)
 * holds a control character, a lone surrogate or hidden formatting. A value that breaks them refuses the sign-in with a
 * 4xx naming it; before, a NUL reached the database and answered 500.
 */

/** The address, trimmed and lowercased as registration stores it; null when registration would refuse it. */
export function assertedEmail(value: string | null): string | null {
  if (value === null || validateCharacters(value) !== null || validateEmail(value) !== null) return null;
  return value.trim().toLowerCase();
}

/** True when each value is absent or text the gateway may store and show. */
export function areStorableTexts(values: ReadonlyArray<string | null | undefined>): boolean {
  return values.every((value) => value === null || value === undefined || validateCharacters(value) === null);
}
