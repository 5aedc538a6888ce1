import { formatDate } from '../../../schemas/locales/intl-format';
import type { TextRef } from '../../auth/sign-in-flow';
import { pluralTextKey } from '../../content/plural-text-key';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';

/**
 * The words of a refusal (sign-in-flow.ts TextRef) in the site's language: a counted text by the
 * locale's plural rules (falling back to its `.other` form), an instant as the locale writes a time.
 */
export function useRefusalText(): (ref: TextRef) => string {
  const { locale } = useSiteLocation();
  const errors = useText('errors');
  const signIn = useText('signIn');
  const account = useText('account');
  const lookups = { errors, signIn, account };
  return (ref) => {
    const lookup = lookups[ref.group];
    const values = ref.at === undefined ? ref.values : { ...ref.values, time: formatDate(new Date(ref.at), locale, { timeStyle: 'short' }) };
    if (ref.count === undefined) return lookup(ref.key, values);
    return lookup(pluralTextKey(ref.key, ref.count, locale), values) || lookup(`${ref.key}.other`, values);
  };
}
