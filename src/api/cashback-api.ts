import { gatewayApi } from './gateway-api';

/** ADR 0010 / SPEC §3 cashback status, with the §3 colours (ELIGIBLE green, NOT_ELIGIBLE red, PENDING blue). */
export type CashbackStatus = 'ELIGIBLE' | 'NOT_ELIGIBLE' | 'PENDING';

/** ADR 0010: one statement line; the card only as its last four (never a card number). */
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

/**
 * SPEC §7 declared `my-cashback`, as ADR 0010 designs it: GET my-cashback/{siteId}. The statement
 * follows the cards, so a change of the cards (Assets) loads it again.
 */
export const cashbackApi = gatewayApi.enhanceEndpoints({ addTagTypes: ['Cashback'] }).injectEndpoints({
  endpoints: (build) => ({
    getCashbackStatement: build.query<CashbackStatement, string>({
      query: (siteId) => ({ url: `my-cashback/${encodeURIComponent(siteId)}`, siteId }),
      providesTags: ['Cashback', 'Assets'],
    }),
  }),
});

export const { useGetCashbackStatementQuery } = cashbackApi;
