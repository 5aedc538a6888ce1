import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * ADR 0009 "Compromised credentials": whether a password is known from breaches. Checked at
 * sign-in, on change and on reset. The offline list always applies; the online range check
 * (PWNED_RANGE_CHECK=true) only adds to it.
 */
export interface CompromisedPasswordCheck {
  isCompromised(password: string): Promise<boolean>;
}

/** `fixtures/common-passwords/` (15,783 passwords, MIT; source in its README). */
export const COMMON_PASSWORDS_FILE = fileURLToPath(new URL('../../fixtures/common-passwords/common-passwords.txt', import.meta.url));

let commonPasswords: ReadonlySet<string> | undefined;
/** The bundled list, read once per process into a set (case-sensitive, as ADR 0009 says). */
export function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
  return commonPasswords;
}

export function offlineCompromisedCheck(list: ReadonlySet<string> = loadCommonPasswords()): CompromisedPasswordCheck {
  return { isCompromised: async (password) => list.has(password) };
}

/** The k-anonymity range API of Have I Been Pwned: only the first 5 hex digits of the SHA-1 leave the server. */
export const PWNED_RANGE_URL = 'https://api.pwnedpasswords.com/range/';
const RANGE_TIMEOUT_MS = 2_000;

/**
 * The offline list, then the online range query. The online answer is advisory: a timeout or an
 * error counts as "not listed" so an outage of the service never blocks a sign-in.
 */
export function rangeQueryCompromisedCheck(offline: CompromisedPasswordCheck, fetchRange: typeof fetch = fetch): CompromisedPasswordCheck {
  return {
    async isCompromised(password) {
      if (await offline.isCompromised(password)) return true;
      const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
      try {
        const response = await fetchRange(`${PWNED_RANGE_URL}${sha1.slice(0, 5)}`, {
          headers: { 'Add-Padding': 'true' },
          signal: AbortSignal.timeout(RANGE_TIMEOUT_MS),
        });
        if (!response.ok) return false;
        const suffix = sha1.slice(5);
        // Lines are "SUFFIX:COUNT"; padding lines have a count of 0.
        return (await response.text()).split('\n').some((line) => {
          const [lineSuffix, count] = line.trim().split(':');
          return lineSuffix === suffix && Number(count) > 0;
        });
      } catch {
        return false;
      }
    },
  };
}
