// The locale rules are the schemas' (schemas/locales/locale-table.ts), so the app and the gateway read a locale
// the same way; this is the gateway's one way to them.
export { DEFAULT_LOCALE, LOCALE_PATTERN } from '../schemas/locales/locale-table';
