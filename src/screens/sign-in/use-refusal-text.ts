import type { TextRef } from '../../auth/sign-in-flow';
import { useText } from '../../content/use-text';

/** The words of a refusal (sign-in-flow.ts TextRef) in the site's language. */
export function useRefusalText(): (ref: TextRef) => string {
  const errors = useText('errors');
  const signIn = useText('signIn');
  const account = useText('account');
  const lookups = { errors, signIn, account };
  return (ref) => lookups[ref.group](ref.key, ref.values);
}
