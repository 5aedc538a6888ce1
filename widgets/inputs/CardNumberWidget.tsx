import type { WidgetProps } from '@rjsf/utils';
import { CARD_NUMBER_MAX_INPUT_LENGTH } from '../../schemas/validators';
import { CARD_NUMBER_FORMAT } from '../form-engine/formatted-edit';
import { FormattedInput } from './FormattedInput';

const keepShownText = (shown: string) => shown;

/**
 * SPEC §5 card number: formatting only, groups of four as typed, input max 19 unless the schema's
 * `maxLength` (pan_capture.maxLength) says otherwise. The value keeps
 * its single spaces, the shape the standalone card form requires; the screen strips them for the
 * API (SPEC §3 "pan (spaces removed)"). Eligibility and duplicates are the card screens' business.
 */
export function CardNumberWidget(props: WidgetProps) {
  return (
    <FormattedInput
      widget={props}
      format={CARD_NUMBER_FORMAT}
      toValue={keepShownText}
      inputMode="numeric"
      dir="ltr"
      autoComplete="cc-number"
      maxLength={props.schema.maxLength ?? CARD_NUMBER_MAX_INPUT_LENGTH}
    />
  );
}
