import { useMemo } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { directionOf, inputModeOf } from '../form-engine/form-context';
import { maskFormat } from '../form-engine/formatted-edit';
import { FormattedInput } from './FormattedInput';

/**
 * A text formatted by the site's mask as it is typed (`ui:options.mask`, SPEC §5 phone, national
 * id, postal code, bin). The value is stored bare, the slot characters only: the API wants digits,
 * and the validators accept the bare form (schemas/validators/masked-value.ts). Letters are
 * upper-cased as typed where the site asks (`ui:options.uppercase`).
 */
export function MaskedTextWidget(props: WidgetProps) {
  const mask = typeof props.options.mask === 'string' ? props.options.mask : '';
  const uppercase = props.options.uppercase === true;
  const format = useMemo(() => maskFormat(mask, uppercase), [mask, uppercase]);
  const autoComplete = typeof props.options.autocomplete === 'string' ? props.options.autocomplete : undefined;
  return (
    <FormattedInput
      widget={props}
      format={format}
      toValue={format.slotCharacters}
      inputMode={inputModeOf(props.options, 'text')}
      dir={directionOf(props.options)}
      autoComplete={autoComplete}
    />
  );
}
