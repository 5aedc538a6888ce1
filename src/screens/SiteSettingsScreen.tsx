import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { asGatewayError } from '../api/gateway-error';
import { useGetOfferCategoriesQuery } from '../api/offers-api';
import { useIsConcierge } from '../auth/use-is-concierge';
import { attributesConflictOf, useGetUserSiteRecordQuery, useSaveUserSiteRecordMutation } from '../api/user-attribute-api';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { singleFieldForm } from './profile/profile-forms';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import { useSiteFormSchema } from './shared/use-site-form';
import './profile/profile.css';

type Outcome = { kind: 'success' | 'error'; key: string } | null;

/**
 * SPEC §2 site-settings (own guard: the site shows offer preferences): the offer categories (§7,
 * customized categories falling back to the offers service) as checkboxes, the chosen ones saved as
 * the `offers_preference` attribute with the whole user site object at the version it was read
 * (`POST user-attribute/user/attribute/{siteId}`, ADR 0010). When another window saved first (409),
 * the screen says so and shows what is stored now.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const editProfile = useSiteFormSchema('edit-profile');
  const form = useMemo(() => (editProfile ? singleFieldForm(editProfile, 'offers_preference') : null), [editProfile]);
  const categories = useGetOfferCategoriesQuery({ siteId, locale });
  const concierge = useIsConcierge();
  const record = useGetUserSiteRecordQuery({ siteId, concierge });
  const formTexts = useFormTexts();
  const text = useText('profile');
  const [save, { isLoading }] = useSaveUserSiteRecordMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const stored = record.data?.attributes.offers_preference;
  // A new object only when the stored choice changes (a save, a reload after a conflict).
  const formData = useMemo<SiteFormData>(() => ({ offers_preference: Array.isArray(stored) ? stored : [] }), [stored]);

  const submit = async (data: SiteFormData) => {
    if (!record.data) return;
    setOutcome(null);
    // The object as read (`siteId`, `attributes`, `version`: never vopUsers) with the new choice.
    const answer = await save({
      record: { siteId, attributes: { ...record.data.attributes, offers_preference: data.offers_preference ?? [] }, version: record.data.version },
      concierge,
    });
    if (!answer.error) setOutcome({ kind: 'success', key: 'settings.saved' });
    else if (attributesConflictOf(answer.error)) setOutcome({ kind: 'error', key: 'settings.conflict' });
    else if (!GLOBAL_ERROR_STATUSES.has(asGatewayError(answer.error).status)) setOutcome({ kind: 'error', key: 'settings.failed' });
  };

  const loading = form === null || categories.isLoading || record.data === undefined;
  return (
    <section className="profile" aria-busy={loading || isLoading}>
      <Breadcrumb />
      <RouteHeading route="site-settings" />
      <p className="profile-panel__intro">{text('settings.intro')}</p>
      {outcome && <FormAlert kind={outcome.kind} message={text(outcome.key)} />}
      <div className="profile-panel">
        {loading ? (
          <p className="profile-loading" role="status">
            <span className="profile-loading__spinner" aria-hidden="true" />
            {text('loading')}
          </p>
        ) : (categories.data ?? []).length === 0 ? (
          <p className="profile-empty">{text('settings.noCategories')}</p>
        ) : (
          <SiteForm
            schema={form.schema}
            uiSchema={form.uiSchema}
            texts={formTexts}
            formData={formData}
            offerCategories={categories.data}
            onSubmit={(data) => void submit(data)}
            submitText={text('settings.submit')}
            disabled={isLoading}
          />
        )}
      </div>
      <p className="profile-back">
        <Link to={`${basePath}profile${search}`}>{text('backToProfile')}</Link>
      </p>
    </section>
  );
}
