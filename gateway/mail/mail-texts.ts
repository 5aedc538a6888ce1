import { contentFallbackChain } from '../../schemas/locales/content-fallback';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import { dateTimeFormat } from '../../schemas/locales/intl-format';
import type { ContentBundle } from '../site-files/load-fixtures';
import { DEFAULT_LOCALE, LOCALE_PATTERN } from '../locale';

/**
 * Mail and SMS texts in the reader's language (SPEC §9 content, docs/decisions/0021-backup-codes-and-account-notices.md):
 * the content group `mail` of the reader's content, key by key down the same language fallback chain
 * as the app's texts (es_mx reads es_co, then en_us: ADR 0013 "Content fallback by language"). `{name}` placeholders are filled with the values given; a text never carries a
 * secret other than the one-time code or link the message exists to deliver.
 */
export type MailTextValues = Readonly<Record<string, string | number>>;

export interface LocalisedTexts {
  locale: string;
  /** A text of the `mail` group, filled. */
  text(key: string, values?: MailTextValues): string;
  /** A label of the `form` group (a field's name for the agent notice), or null when there is none. */
  fieldLabel(key: string): string | null;
  /** A moment as the reader writes dates and times, in UTC (the mail cannot know their time zone). */
  moment(at: Date): string;
}

export type MailTexts = (locale: string) => LocalisedTexts;

const MAIL_GROUP = 'mail';
const PLACEHOLDER = /\{(\w+)\}/g;

export function mailTextsFrom(content: ReadonlyMap<string, ContentBundle>): MailTexts {
  return (requested) => {
    const chain = contentFallbackChain(LOCALE_PATTERN.test(requested) ? requested : DEFAULT_LOCALE, content.keys());
    const locale = chain[0] ?? DEFAULT_LOCALE;
    const bundles = chain.map((file) => content.get(file) ?? {});
    const lookup = (group: string, key: string): string | undefined => bundles.find((bundle) => bundle[group]?.[key] !== undefined)?.[group]?.[key];
    const format = dateTimeFormat(localeToLanguageTag(locale), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
    return {
      locale,
      text(key, values = {}) {
        const template = lookup(MAIL_GROUP, key);
        // The en_us content holds every mail key (tests/gateway/mail/mail-texts.test.ts); a missing one is a build mistake.
        if (template === undefined) throw new Error(`The content has no mail text "${key}"`);
        return template.replace(PLACEHOLDER, (match, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : match));
      },
      fieldLabel: (key) => lookup(MAIL_GROUP, `field.${key}`) ?? lookup('form', `label.${key}`) ?? null,
      moment: (at) => `${format.format(at)} UTC`,
    };
  };
}
