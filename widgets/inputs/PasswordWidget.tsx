import { useState, type FocusEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { passwordRuleResults } from '../../schemas/validators';
import { isLeavingGroup, textOf } from '../form-engine/form-context';

/**
 * A password input with a show/hide toggle and, with `ui:options.showRules`, the SPEC §5 rules
 * as a live checklist (passwordRuleResults, the rules the validator counts). Each rule's state is
 * shown by an icon and said in words; one polite status announces the count of rules met, so a
 * screen reader hears progress without the whole list on every keystroke. Moving to the toggle is
 * not leaving the field.
 */
export function PasswordWidget(props: WidgetProps) {
  const { id, htmlName, value, options, required, disabled, readonly, autofocus, rawErrors, registry, onChange, onBlur, onFocus } = props;
  const text = textOf(registry);
  const [visible, setVisible] = useState(false);
  const password = typeof value === 'string' ? value : '';
  // Nothing typed meets nothing yet: "No spaces" would read as met on an empty field. The validator's count is its own.
  const rules = options.showRules === true ? passwordRuleResults(password).map((result) => ({ ...result, passed: password !== '' && result.passed })) : null;
  const rulesId = `${id}__rules`;
  const invalid = (rawErrors?.length ?? 0) > 0;
  const describedBy = [invalid ? errorId(id) : null, rules ? rulesId : null].filter(Boolean).join(' ') || undefined;

  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (isLeavingGroup(event)) onBlur(id, value);
  };

  return (
    <div className="password" onBlur={leave}>
      <div className="password__row">
        <input
          id={id}
          name={htmlName ?? id}
          className="field__input"
          type={visible ? 'text' : 'password'}
          value={password}
          autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
          autoCapitalize="none"
          spellCheck={false}
          required={required}
          disabled={disabled}
          readOnly={readonly}
          autoFocus={autofocus}
          onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
          onFocus={() => onFocus(id, value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
        <button
          type="button"
          className="button button--secondary password__toggle"
          aria-pressed={visible}
          aria-controls={id}
          disabled={disabled}
          onClick={() => setVisible((shown) => !shown)}
        >
          {text('password.show')}
        </button>
      </div>
      {rules && (
        <div className="password-rules">
          <p id={`${rulesId}-title`} className="password-rules__title">
            {text('passwordRules.title')}
          </p>
          <ul id={rulesId} className="password-rules__list" aria-labelledby={`${rulesId}-title`}>
            {rules.map(({ rule, passed }) => (
              <li key={rule} className={passed ? 'password-rules__rule password-rules__rule--met' : 'password-rules__rule'}>
                <span className="password-rules__icon" aria-hidden="true">
                  {passed ? '✓' : '○'}
                </span>
                <span className="password-rules__text">
                  {text(`passwordRule.${rule}`)}
                  <span className="visually-hidden"> ({text(passed ? 'passwordRule.met' : 'passwordRule.notMet')})</span>
                </span>
              </li>
            ))}
          </ul>
          <p className="visually-hidden" role="status" aria-live="polite">
            {password === '' ? '' : text('passwordRules.status', { met: rules.filter((result) => result.passed).length, count: rules.length })}
          </p>
        </div>
      )}
    </div>
  );
}
