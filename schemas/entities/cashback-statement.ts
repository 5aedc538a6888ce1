/**
 * ADR 0010 `GET my-cashback/{siteId}`: one shape for the gateway that sends the statement, the app
 * that shows it and the fixtures that seed it. SPEC §3 "Cashback status": ELIGIBLE (green badge),
 * NOT_ELIGIBLE (red), PENDING (blue).
 */
export const CASHBACK_STATUSES = ['ELIGIBLE', 'PENDING', 'NOT_ELIGIBLE'] as const;
export type CashbackStatus = (typeof CASHBACK_STATUSES)[number];

/** One line of the statement; the card only as its last four digits, never its number. */
export interface CashbackLine {
  id: string;
  assetId: string | null;
  lastFour: string;
  productType: string | null;
  merchant: string;
  /** YYYY-MM-DD. */
  date: string;
  /** In the currency's minor unit (cents). */
  amountMinor: number;
  /** ISO 4217. */
  currency: string;
  status: CashbackStatus;
}

export interface CashbackTotal {
  currency: string;
  status: CashbackStatus;
  amountMinor: number;
  count: number;
}

export interface CashbackStatement {
  siteId: string;
  /** Newest first. */
  lines: CashbackLine[];
  totals: CashbackTotal[];
}
