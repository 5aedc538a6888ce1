import type { SubmitButtonProps } from '@rjsf/utils';
import { getSubmitButtonOptions } from '@rjsf/utils';

/** The submit button; SiteForm puts its text from content in `ui:submitButtonOptions`. */
export function SubmitButton({ uiSchema }: SubmitButtonProps) {
  const { submitText, norender, props } = getSubmitButtonOptions(uiSchema);
  if (norender) return null;
  return (
    <div className="site-form__actions">
      <button type="submit" className="button button--primary" disabled={props?.disabled === true}>
        {submitText}
      </button>
    </div>
  );
}
