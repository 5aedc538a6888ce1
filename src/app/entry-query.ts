import { validateQueryParam, validateReturnUrl } from '../../schemas/validators';

export interface EntryQuery {
  /** §2: the returnurl, only when valid, with selectedCause appended when that is valid. */
  returnUrl: string | null;
  /** §2: editPw shows the password-updated notice. */
  passwordUpdated: boolean;
}

/** SPEC §2 query parameters the root screen acts on (returnurl, selectedCause, editPw). */
export function readEntryQuery(search: string, origin: string): EntryQuery {
  const query = new URLSearchParams(search);
  const returnUrl = query.get('returnurl');
  const selectedCause = query.get('selectedCause');
  let storedReturnUrl: string | null = null;
  if (returnUrl !== null && validateReturnUrl(returnUrl, { origin }) === null) {
    storedReturnUrl = returnUrl;
    if (selectedCause !== null && validateQueryParam(selectedCause) === null) {
      const separator = returnUrl.includes('?') ? '&' : '?';
      storedReturnUrl = `${returnUrl}${separator}${new URLSearchParams({ selectedCause }).toString()}`;
    }
  }
  return { returnUrl: storedReturnUrl, passwordUpdated: query.get('editPw') === 'true' };
}

/**
 * The address once its one-time notice is shown: `editPw` taken out, every other parameter kept, so a reload or any
 * later link (they carry the search on) does not say "Your password has been updated." again. Null when there is
 * nothing to take out.
 */
export function searchWithoutNotice(search: string): string | null {
  const query = new URLSearchParams(search);
  if (!query.has('editPw')) return null;
  query.delete('editPw');
  const rest = query.toString();
  return rest === '' ? '' : `?${rest}`;
}
