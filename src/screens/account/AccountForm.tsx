import { useDispatch } from 'react-redux';
import type { FormSchema } from '../../../schemas/forms/json-schema';
import type { FormTexts } from '../../../widgets/form-engine/form-texts';
import type { OfferCategory } from '../../../widgets/form-engine/form-context';
import { SiteForm, type SiteFormData } from '../../../widgets/SiteForm';
import { successNoticesHidden } from '../../app/alerts-slice';
import { FormAlert } from '../shared/FormAlert';
import type { useAccountRefusal } from './use-account-refusal';

interface AccountFormProps {
  /** The site's form (useSiteFormSchema); nothing is drawn until it is there. */
  form: FormSchema | null | undefined;
  formTexts: FormTexts;
  /** The screen's last refusal: its alert above the form, its field errors beside the fields. */
  refusal: Pick<ReturnType<typeof useAccountRefusal>, 'alertMessage' | 'serverErrors'>;
  onSubmit: (data: SiteFormData) => void;
  submitText: string;
  disabled: boolean;
  formData?: SiteFormData;
  offerCategories?: readonly OfferCategory[];
}

/**
 * An account screen's form (ADR 0009): the gateway's refusal shown as an alert and next to its fields. Submitting
 * takes away the success notice of the step before (alerts-slice successNoticesHidden).
 */
export function AccountForm({ form, formTexts, refusal, onSubmit, submitText, disabled, formData, offerCategories }: AccountFormProps) {
  const dispatch = useDispatch();
  const submit = (data: SiteFormData) => {
    dispatch(successNoticesHidden());
    onSubmit(data);
  };
  return (
    <>
      {refusal.alertMessage !== null && <FormAlert kind="error" message={refusal.alertMessage} />}
      {form && (
        <SiteForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          texts={formTexts}
          formData={formData}
          offerCategories={offerCategories}
          serverErrors={refusal.serverErrors}
          onSubmit={submit}
          submitText={submitText}
          disabled={disabled}
        />
      )}
    </>
  );
}
