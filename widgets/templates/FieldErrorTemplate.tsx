import type { FieldErrorProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';

/**
 * The message next to its field, under the id the input's aria-describedby names. One message:
 * the validators answer one FieldError per field (SPEC §5).
 */
export function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const message = errors?.find((error) => typeof error === 'string' && error !== '');
  if (message === undefined) return null;
  return (
    <p id={errorId(fieldPathId)} className="field__error">
      {message}
    </p>
  );
}
