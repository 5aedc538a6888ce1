import type { CASHBACK_STATEMENT_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi } from './gateway-api';

/**
 * SPEC §7 declared `my-cashback`, as ADR 0010 designs it: GET my-cashback/{siteId}. The statement
 * follows the cards, so a change of the cards (Assets) loads it again.
 */
export const cashbackApi = gatewayApi.enhanceEndpoints({ addTagTypes: ['Cashback'] }).injectEndpoints({
  endpoints: (build) => ({
    getCashbackStatement: build.query<SchemaType<typeof CASHBACK_STATEMENT_ANSWER>, string>({
      query: (siteId) => ({ url: `my-cashback/${encodeURIComponent(siteId)}`, siteId }),
      providesTags: ['Cashback', 'Cards'],
    }),
  }),
});

export const { useGetCashbackStatementQuery } = cashbackApi;
