import { formatDate } from '../../../schemas/locales/intl-format';
import type { TextRef } from '../../api/gateway-error';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';

/**
 * The words of a refusal (api/gateway-error.ts TextRef) in the site's language: a counted text in the form
 * its `values.count` selects (useText, ADR 0013 "Counted texts"), an instant as the locale writes a time.
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
    return lookup(ref.key, values);
  };
}
