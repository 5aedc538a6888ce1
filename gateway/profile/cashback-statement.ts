import {
  CASHBACK_STATUSES,
  type CashbackLine,
  type CashbackStatement,
  type CashbackStatus,
  type CashbackTotal,
} from '../../schemas/entities/cashback-statement';
import type { Queryable } from '../db/database';

/** ADR 0010 `GET my-cashback/{siteId}`: the person's lines on the site, newest first, with totals per currency and status. */
export async function readCashbackStatement(db: Queryable, userId: string, siteId: string): Promise<CashbackStatement> {
  const result = await db.query<{
    id: string;
    asset_id: string | null;
    last_four: string;
    product_type: string | null;
    merchant: string;
    transaction_date: string;
    amount_minor: string | number;
    currency: string;
    status: CashbackStatus;
  }>(
    `select id, asset_id, last_four, product_type, merchant, transaction_date::text as transaction_date, amount_minor, currency, status
     from cashback_lines where user_id = $1 and site_id = $2
     order by transaction_date desc, created_at desc, id`,
    [userId, siteId],
  );
  const lines = result.rows.map((row) => ({
    id: row.id,
    assetId: row.asset_id,
    lastFour: row.last_four,
    productType: row.product_type,
    merchant: row.merchant,
    date: row.transaction_date,
    // bigint arrives as text from PostgreSQL; statement amounts stay far below 2^53.
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    status: row.status,
  }));
  return { siteId, lines, totals: totalsOf(lines) };
}

function totalsOf(lines: readonly CashbackLine[]): CashbackTotal[] {
  const totals = new Map<string, CashbackTotal>();
  for (const line of lines) {
    const key = `${line.currency} ${line.status}`;
    const total = totals.get(key) ?? { currency: line.currency, status: line.status, amountMinor: 0, count: 0 };
    total.amountMinor += line.amountMinor;
    total.count += 1;
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency) || CASHBACK_STATUSES.indexOf(a.status) - CASHBACK_STATUSES.indexOf(b.status));
}
