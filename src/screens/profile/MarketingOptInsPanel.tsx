import { useMemo, useState } from 'react';
import { marketingOptInsAttribute, readMarketingOptIns } from '../../../schemas/entities/marketing-opt-ins';
import { readSiteFormSettings } from '../../../schemas/forms/site-form-settings';
import { SiteForm, type SiteFormData } from '../../../widgets/SiteForm';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { attributesConflictOf, useSaveChangedAttributesMutation, type UserSiteRecord } from '../../api/user-attribute-api';
import { useFormTexts } from '../../content/use-form-texts';
import { useIsConcierge } from '../../auth/use-is-concierge';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { FormAlert } from '../shared/FormAlert';
import { useSiteFormSchema } from '../shared/use-site-form';
import { singleFieldForm } from './profile-forms';

type Outcome = { kind: 'success' | 'error'; key: string } | null;

/**
 * SPEC §3 marketing opt-ins on the profile: the site's enabled opt-ins (the `marketing_opt_ins` field
 * of its edit-profile form, with "All of the above" when the site offers it), read through
 * `readMarketingOptIns` (legacy names included) and saved through v2 with that one key, holding the
 * opt-ins that changed (ADR 0010).
 */
export function MarketingOptInsPanel({ record }: { record: UserSiteRecord }) {
  const { siteId } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId).data;
  const editProfile = useSiteFormSchema('edit-profile');
  const form = useMemo(() => (editProfile ? singleFieldForm(editProfile, 'marketing_opt_ins') : null), [editProfile]);
  const formTexts = useFormTexts({ withOptIns: true });
  const optInTexts = useText('optins');
  const profileTexts = useText('profile');
  // "Nothing changed" reads the same on every profile screen.
  const text = (key: string) => (key === 'unchanged' ? profileTexts('edit.nothingChanged') : optInTexts(key));
  const concierge = useIsConcierge();
  const [save, { isLoading }] = useSaveChangedAttributesMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const enabled = useMemo(() => (site ? readSiteFormSettings(site).marketingOptIns : []), [site]);
  // A new object only when the stored opt-ins change (a save, a reload after a conflict).
  const formData = useMemo<SiteFormData>(() => {
    const flags = readMarketingOptIns(record.attributes);
    return { marketing_opt_ins: Object.fromEntries(enabled.map((key) => [key, flags[key]])) };
  }, [record.attributes, enabled]);

  if (form === null || enabled.length === 0) return null;

  const submit = async (data: SiteFormData) => {
    setOutcome(null);
    const chosen = (data.marketing_opt_ins ?? {}) as Record<string, unknown>;
    const stored = readMarketingOptIns(record.attributes);
    const storedEntries = (record.attributes.marketing_opt_ins ?? {}) as Record<string, unknown>;
    // ADR 0010: each opt-in is versioned on its own and the ones not sent keep their value, so only the changed
    // ones go, plus any still held under a legacy name (SPEC §3), which the new shape replaces.
    const sent = enabled.filter((key) => (chosen[key] === true) !== stored[key] || !(key in storedEntries));
    if (sent.length === 0) {
      setOutcome({ kind: 'success', key: 'unchanged' });
      return;
    }
    const flags = Object.fromEntries(sent.map((key) => [key, chosen[key] === true]));
    const answer = await save({ siteId, attributes: { marketing_opt_ins: marketingOptInsAttribute(flags) }, baseVersion: record.version, concierge });
    if (!answer.error) setOutcome({ kind: 'success', key: 'saved' });
    else setOutcome({ kind: 'error', key: attributesConflictOf(answer.error) ? 'conflict' : 'failed' });
  };

  return (
    <section className="profile-panel" aria-labelledby="profile-optins-title" aria-busy={isLoading}>
      <h2 id="profile-optins-title" className="profile-panel__title">
        {text('heading')}
      </h2>
      <p className="profile-panel__intro">{text('intro')}</p>
      {outcome && <FormAlert kind={outcome.kind} message={text(outcome.key)} />}
      <SiteForm
        schema={form.schema}
        uiSchema={form.uiSchema}
        texts={formTexts}
        formData={formData}
        onSubmit={(data) => void submit(data)}
        submitText={text('save')}
        disabled={isLoading}
      />
    </section>
  );
}
