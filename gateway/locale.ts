/** SPEC §2: a locale looks like xx_yy; SPEC §9: the default is en_us. */
export const LOCALE_PATTERN = /^[a-z]{2}_[a-z]{2}$/;
export const DEFAULT_LOCALE = 'en_us';
