import { LOCALE_ID_PATTERN } from '../schemas/api/request-schemas';

/** SPEC §2: a locale looks like xx_yy; SPEC §9: the default is en_us. */
export const LOCALE_PATTERN = new RegExp(LOCALE_ID_PATTERN);
export const DEFAULT_LOCALE = 'en_us';
