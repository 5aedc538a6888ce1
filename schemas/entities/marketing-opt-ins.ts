import { MARKETING_OPT_IN_KEYS, type MarketingOptInKey } from '../forms/site-form-settings';

/**
 * SPEC §3 "Marketing opt-ins" as stored in the site attribute `marketing_opt_ins` (ADR 0010):
 * one entry per opt-in key with its optin flag.
 */
export type MarketingOptInsAttribute = Partial<Record<MarketingOptInKey, { optin: boolean }>>;

/** SPEC §3 legacy top-level attributes and the opt-in each one stands for. */
export const LEGACY_MARKETING_OPT_IN_NAMES: Readonly<Record<string, MarketingOptInKey>> = {
  trnxn_data_optin: 'transactional',
  sms_optin: 'sms',
  online_optin: 'online',
  email_optin: 'email',
};

const LEGACY_NAME_BY_KEY: Partial<Record<MarketingOptInKey, string>> = Object.fromEntries(
  Object.entries(LEGACY_MARKETING_OPT_IN_NAMES).map(([legacyName, key]) => [key, legacyName]),
);

/** Stored data comes from older systems that wrote flags as the text "true". */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one stored shape of `marketing_opt_ins` (SPEC §3: each opt-in with its optin flag) from either shape
 * that reaches the gateway: the registration form's checkbox list `{ email: true }` or the stored
 * `{ email: { optin: true } }`. The gateway stores only what this returns, and every reader reads through
 * it, so an account written before one shape was enforced (migration 012 rewrites those) still reads as
 * the person chose. Keys that are not opt-ins and entries that are neither shape are left out.
 */
export function normaliseMarketingOptIns(value: unknown): MarketingOptInsAttribute {
  const normalised: MarketingOptInsAttribute = {};
  if (!isRecord(value)) return normalised;
  for (const key of MARKETING_OPT_IN_KEYS) {
    const entry = value[key];
    if (typeof entry === 'boolean') normalised[key] = { optin: entry };
    else if (isRecord(entry) && 'optin' in entry) normalised[key] = { optin: isTrue(entry.optin) };
  }
  return normalised;
}

/**
 * Every opt-in flag of a person's site attributes: the `marketing_opt_ins` entry when present, else
 * the legacy top-level attribute (SPEC §3), else false.
 */
export function readMarketingOptIns(attributes: Readonly<Record<string, unknown>>): Record<MarketingOptInKey, boolean> {
  const stored = normaliseMarketingOptIns(attributes.marketing_opt_ins);
  const flags = {} as Record<MarketingOptInKey, boolean>;
  for (const key of MARKETING_OPT_IN_KEYS) {
    const entry = stored[key];
    if (entry !== undefined) {
      flags[key] = entry.optin;
      continue;
    }
    const legacyName = LEGACY_NAME_BY_KEY[key];
    flags[key] = legacyName !== undefined && isTrue(attributes[legacyName]);
  }
  return flags;
}

/** The stored `marketing_opt_ins` shape for the given flags (ADR 0010: saving writes the new shape only). */
export function marketingOptInsAttribute(values: Readonly<Partial<Record<MarketingOptInKey, boolean>>>): MarketingOptInsAttribute {
  const attribute: MarketingOptInsAttribute = {};
  for (const key of MARKETING_OPT_IN_KEYS) {
    const value = values[key];
    if (value !== undefined) attribute[key] = { optin: value };
  }
  return attribute;
}
