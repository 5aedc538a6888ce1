import { Link, useLocation } from 'react-router-dom';
import { offersCashbackStatement } from '../../schemas/cards/card-config';
import { featureConfigOf } from '../../schemas/site-config/types';
import type { CashbackLine, CashbackStatus } from '../../schemas/entities/cashback-statement';
import { useGetCashbackStatementQuery } from '../api/cashback-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useText } from '../content/use-text';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import { useSiteLocation } from '../site/use-site-location';
import { formatCalendarDay, formatMoney } from './profile/profile-format';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import './profile/profile.css';

/** SPEC §3 cashback status colours: ELIGIBLE green, NOT_ELIGIBLE red, PENDING blue. */
const BADGE_CLASS: Readonly<Record<CashbackStatus, string>> = {
  ELIGIBLE: 'badge badge--positive',
  NOT_ELIGIBLE: 'badge badge--negative',
  PENDING: 'badge badge--pending',
};

interface CardGroup {
  key: string;
  lastFour: string;
  productType: string | null;
  lines: CashbackLine[];
}

/** Lines per card, in the order the cards first appear (the statement is newest first). */
function groupByCard(lines: readonly CashbackLine[]): CardGroup[] {
  const groups = new Map<string, CardGroup>();
  for (const line of lines) {
    const key = line.assetId ?? `last-four-${line.lastFour}`;
    const group = groups.get(key) ?? { key, lastFour: line.lastFour, productType: line.productType, lines: [] };
    group.lines.push(line);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * SPEC §2 cashback-statement (ADR 0010 `GET my-cashback/{siteId}`): the lines grouped per card (masked
 * to its last four, with its product type text), each with merchant, date and amount in the page
 * locale and its status badge in §3's colours, then the totals per currency and status. A loading
 * state while the statement comes, an empty state when there is nothing yet.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const text = useText('profile');
  const cards = useText('cards');
  const site = useGetSiteConfigQuery(siteId).data;
  // SPEC §3 card config `name`: the {product} of the card texts.
  const product = (site && featureConfigOf(site, 'pan_capture').name) ?? site?.name ?? '';
  // ADR 0001 `cashback_enabled`: without cashback there is no statement to ask for (the gateway answers 404 NO_CASHBACK_STATEMENT).
  const offered = site !== undefined && offersCashbackStatement(site);
  const statement = useGetCashbackStatementQuery(siteId, { skip: !offered });
  const languageTag = localeToLanguageTag(locale);

  // §3 product type codes: "{product} Signature", else "{product} Card".
  const productText = (code: string | null) => {
    const key = code !== null && cards(`product.${code}`) !== '' ? `product.${code}` : 'product.fallback';
    return cards(key, { product });
  };
  const badge = (status: CashbackStatus) => <span className={BADGE_CLASS[status]}>{cards(`cashback.${status}`)}</span>;

  let body;
  if (site !== undefined && !offered) {
    body = <p className="profile-empty">{text('cashback.notOffered')}</p>;
  } else if (site === undefined || statement.isLoading) {
    body = (
      <div className="statement-skeleton" role="status" aria-label={text('cashback.loading')}>
        {[0, 1, 2].map((row) => (
          <span key={row} className="statement-skeleton__row" aria-hidden="true" />
        ))}
      </div>
    );
  } else if (statement.isError || statement.data === undefined) {
    body = (
      <p className="alert alert--error" role="alert">
        {text('cashback.failed')}
      </p>
    );
  } else if (statement.data.lines.length === 0) {
    body = <p className="profile-empty">{text('cashback.empty')}</p>;
  } else {
    body = (
      <>
        {groupByCard(statement.data.lines).map((group) => (
          <section key={group.key} className="profile-panel statement-card" aria-labelledby={`statement-${group.key}`}>
            <h2 id={`statement-${group.key}`} className="profile-panel__title statement-card__title">
              <span className="statement-card__number">{`XXXX XXXX XXXX ${group.lastFour}`}</span>
              <span className="statement-card__product">{productText(group.productType)}</span>
            </h2>
            <table className="statement-table">
              <thead>
                <tr>
                  <th scope="col">{text('cashback.date')}</th>
                  <th scope="col">{text('cashback.merchant')}</th>
                  <th scope="col" className="statement-table__amount">
                    {text('cashback.amount')}
                  </th>
                  <th scope="col">{text('cashback.status')}</th>
                </tr>
              </thead>
              <tbody>
                {group.lines.map((line) => (
                  <tr key={line.id}>
                    <td className="statement-table__date">{formatCalendarDay(line.date, languageTag, 'medium')}</td>
                    {/* The merchant's own name: never translated (and not content). */}
                    <td translate="no">{line.merchant}</td>
                    <td className="statement-table__amount">{formatMoney(line.amountMinor, line.currency, languageTag)}</td>
                    <td>{badge(line.status)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <section className="profile-panel" aria-labelledby="statement-totals">
          <h2 id="statement-totals" className="profile-panel__title">
            {text('cashback.totals')}
          </h2>
          <dl className="statement-totals">
            {statement.data.totals.map((total) => (
              <div key={`${total.currency}-${total.status}`} className="statement-totals__row">
                <dt>
                  {badge(total.status)}
                  <span className="statement-totals__count">{text('cashback.count', { count: total.count })}</span>
                </dt>
                <dd className="statement-table__amount">{formatMoney(total.amountMinor, total.currency, languageTag)}</dd>
              </div>
            ))}
          </dl>
        </section>
      </>
    );
  }

  return (
    <section className="profile" aria-busy={statement.isLoading}>
      <Breadcrumb />
      <RouteHeading route="cashback-statement" />
      {offered && <p className="profile-panel__intro">{text('cashback.intro')}</p>}
      {body}
      <p className="profile-back">
        <Link to={`${basePath}profile${search}`}>{text('backToProfile')}</Link>
      </p>
    </section>
  );
}
