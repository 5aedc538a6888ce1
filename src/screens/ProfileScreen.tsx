import { Link, useLocation } from 'react-router-dom';
import { isMfaOffered } from '../../schemas/site-config/credential-offers';
import { useGetOfferCategoriesQuery } from '../api/offers-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useGetUserSiteRecordQuery } from '../api/user-attribute-api';
import { nameInitials } from '../app/name-initials';
import { useAgentTitle } from '../app/screen-title';
import { useIsConcierge } from '../auth/use-is-concierge';
import { useText } from '../content/use-text';
import { isOffersPreferenceShown } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import { ProfileCards } from './cards/ProfileCards';
import { MarketingOptInsPanel } from './profile/MarketingOptInsPanel';
import { PhoneProofPanel } from './profile/PhoneProofPanel';
import { ProfileDetails } from './profile/ProfileDetails';
import { profileLinks } from './profile/profile-links';
import { RouteHeading } from './RouteHeading';
import { useSignedInProfile } from './shared/use-profile';
import '../../widgets/widgets.css';
import './profile/profile.css';

/**
 * SPEC §2 profile: the profile, the site attributes and the offer categories the loader preloaded.
 * Shows the §3 profile (names, title, date of birth, status, MFA status, gender when present) and
 * the site's attributes in their display format, a new phone's code question (ADR 0025), the cards, the marketing opt-ins (editable here,
 * ADR 0010), the chosen offer categories, and a link to every account screen the site allows.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const text = useText('profile');
  const common = useText('common');
  const site = useGetSiteConfigQuery(siteId).data;
  const profile = useSignedInProfile();
  const concierge = useIsConcierge();
  const agentTitle = useAgentTitle();
  const record = useGetUserSiteRecordQuery({ siteId, concierge });
  const offersShown = site !== undefined && isOffersPreferenceShown(site);
  const categories = useGetOfferCategoriesQuery({ siteId, locale }, { skip: !offersShown }).data ?? [];

  if (site === undefined || record.data === undefined) {
    return (
      <section className="profile" aria-busy="true">
        <RouteHeading route="profile" />
        <p className="profile-loading" role="status">
          <span className="profile-loading__spinner" aria-hidden="true" />
          {common('loading')}
        </p>
      </section>
    );
  }

  const attributes = record.data.attributes;
  const chosen = Array.isArray(attributes.offers_preference) ? (attributes.offers_preference as unknown[]) : [];
  const chosenNames = categories.filter((category) => chosen.includes(category.id)).map((category) => category.name);
  const mfaEnrolled = profile?.mfaEnrollmentStatus === 'ENROLLED';
  const fullName = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ');

  return (
    <section className="profile">
      <RouteHeading route="profile" />
      <div className="profile-summary">
        <span className="profile-summary__avatar" aria-hidden="true">
          {nameInitials(profile?.firstName, profile?.lastName)}
        </span>
        <div className="profile-summary__who">
          <p className="profile-summary__name">{fullName || text('notProvided')}</p>
          {/* An isolate of its own direction (an address reads left to right) on a right-to-left page (schemas/locales/bidi-isolates.ts). */}
          {profile && (
            <p className="profile-summary__email">
              <bdi>{profile.email}</bdi>
            </p>
          )}
        </div>
        {profile && (
          <dl className="profile-summary__badges">
            <div className="profile-badge">
              <dt>{text('status.label')}</dt>
              <dd className={`badge ${profile.userAccountStatus === 'ACTIVE' ? 'badge--positive' : 'badge--neutral'}`}>
                {text(`status.${profile.userAccountStatus}`) || profile.userAccountStatus}
              </dd>
            </div>
            {/* A site with MFA "off" offers no two-step verification, so it shows no two-step row either. */}
            {isMfaOffered(site) && (
              <div className="profile-badge">
                <dt>{text('mfa.label')}</dt>
                <dd className={`badge ${mfaEnrolled ? 'badge--positive' : 'badge--neutral'}`}>{text(mfaEnrolled ? 'mfa.ENROLLED' : 'mfa.NOT_ENROLLED')}</dd>
              </div>
            )}
          </dl>
        )}
      </div>

      {/* ADR 0025: a new phone waits for its code here, where the save lands; never for an agent (ADR 0014). */}
      {!concierge && <PhoneProofPanel />}

      <section className="profile-panel" aria-labelledby="profile-details-title">
        <h2 id="profile-details-title" className="profile-panel__title">
          {text('details.title')}
        </h2>
        <ProfileDetails site={site} attributes={attributes} profile={profile} />
      </section>

      <section className="profile-panel" aria-labelledby="profile-cards-title">
        <h2 id="profile-cards-title" className="profile-panel__title">
          {text('cards.title')}
        </h2>
        <ProfileCards />
      </section>

      {offersShown && (
        <section className="profile-panel" aria-labelledby="profile-offers-title">
          <h2 id="profile-offers-title" className="profile-panel__title">
            {text('offers.title')}
          </h2>
          {chosenNames.length > 0 ? (
            <ul className="profile-chips">
              {chosenNames.map((name) => (
                <li key={name} className="profile-chip">
                  {name}
                </li>
              ))}
            </ul>
          ) : (
            <p className="profile-panel__intro">{text('offers.none')}</p>
          )}
        </section>
      )}

      <MarketingOptInsPanel record={record.data} />

      <nav className="profile-panel" aria-labelledby="profile-links-title">
        <h2 id="profile-links-title" className="profile-panel__title">
          {text('links.title')}
        </h2>
        <ul className="profile-links">
          {profileLinks(site, locale, mfaEnrolled, concierge ? 'CONCIERGE' : 'CARDHOLDER').map((route) => (
            <li key={route}>
              <Link className={`profile-link${route === 'delete-profile' ? ' profile-link--danger' : ''}`} to={`${basePath}${route}${search}`}>
                {/* An agent reads the holder's screens named for the holder (ADR 0014): "Emily Carter's cards", not "Manage cards". */}
                {agentTitle(route) ?? text(`link.${route}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
