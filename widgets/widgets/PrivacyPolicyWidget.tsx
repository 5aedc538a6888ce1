import type { WidgetProps } from '@rjsf/utils';
import { ContentHtml } from '../form-engine/content-html';
import { labelOf, textOf } from '../form-engine/form-context';
import { FieldLabelText } from '../templates/FieldLabelText';
import { LabelledCheckbox } from './CheckboxWidget';

/**
 * SPEC §3, §5 privacy policy display: A a checkbox that must be ticked, B an optional checkbox,
 * C the policy notice alone (`<labelKey>.notice`), with nothing to tick.
 */
export function PrivacyPolicyWidget(props: WidgetProps) {
  const { id, options, registry, label, required } = props;
  if (options.display === 'C') {
    const labelKey = typeof options.labelKey === 'string' ? options.labelKey : 'label.pp';
    // The notice may link to the policy: content markup, sanitised (ADR 0013).
    return <ContentHtml id={id} className="privacy-notice" html={textOf(registry)(`${labelKey}.notice`)} />;
  }
  return <LabelledCheckbox widget={props} label={<FieldLabelText label={labelOf(registry, options, label)} required={required} />} />;
}
