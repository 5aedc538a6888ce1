import type { ReactNode } from 'react';
import { localeDirection } from '../../schemas/locales/locale-table';
import type { TextValues } from '../../widgets/form-engine/form-texts';
import { isolatedText } from '../../widgets/text/isolated-text';
import { useSiteLocation } from '../site/use-site-location';
import type { ShellContentGroup } from './default-texts';
import { useText } from './use-text';

/**
 * useText for a text whose values are masked numbers, codes or e-mails: on a right-to-left page each value is
 * isolated where it stands (widgets/text/isolated-text.tsx), so "…إلى *** *** 3456" does not read "3456 *** ***";
 * on a left-to-right page the values already run with the text, which is answered as it is.
 */
export function useIsolatedText(group: ShellContentGroup): (key: string, values: TextValues) => ReactNode {
  const text = useText(group);
  const rightToLeft = localeDirection(useSiteLocation().locale) === 'rtl';
  return (key, values) => (rightToLeft ? isolatedText(text, key, values) : text(key, values));
}
