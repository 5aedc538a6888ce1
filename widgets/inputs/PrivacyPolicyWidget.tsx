import type { WidgetProps } from '@rjsf/utils';
import { ContentHtml } from '../form-engine/content-html';
import { labelOf, textOf } from '../form-engine/form-context';
import { FieldLabelText } from '../templates/FieldLabelText';
import { LabelledCheckbox } from './CheckboxWidget';

/**
 * SPEC §3, §5 privacy policy display: A a checkbox that must be ticked, B an optional checkbox whose
 * label says it is optional (`<labelKey>.optional`), C the policy notice alone (`<labelKey>.notice`), with nothing to tick. Each is followed by a
 * link to the site's policy (`ui:options.policyUrl`, the fixture's privacy_policy_url), so it can
 * be read before it is accepted; it opens in a new tab so the form being filled is not lost.
 */
export function PrivacyPolicyWidget(props: WidgetProps) {
  const { id, options, registry, label, required } = props;
  const text = textOf(registry);
  const labelKey = typeof options.labelKey === 'string' ? options.labelKey : 'label.pp';
  const policyLink =
    typeof options.policyUrl === 'string' ? (
      <a className="privacy-policy__link" id={`${id}__policy`} href={options.policyUrl} target="_blank" rel="noopener noreferrer">
        {text(`${labelKey}.link`)}
      </a>
    ) : null;
  // B's box may stay unticked: its label says so (`<labelKey>.optional`), where A's "I have read and accept" reads as a condition.
  const checkboxLabel = options.display === 'B' ? text(`${labelKey}.optional`) : labelOf(registry, options, label);
  if (options.display === 'C') {
    return (
      <div className="privacy-policy">
        {/* The notice may link to the policy: content markup, sanitised (ADR 0013). */}
        <ContentHtml id={id} className="privacy-notice" html={text(`${labelKey}.notice`)} />
        {policyLink}
      </div>
    );
  }
  return (
    <div className="privacy-policy">
      <LabelledCheckbox widget={props} label={<FieldLabelText label={checkboxLabel} required={required} />} />
      {policyLink}
    </div>
  );
}
