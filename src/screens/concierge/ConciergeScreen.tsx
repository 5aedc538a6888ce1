import { useId, useState, type SubmitEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { validateEmail } from '../../../schemas/validators/email';
import { useActForMutation, useGetActingForQuery } from '../../api/concierge-api';
import { asGatewayError } from '../../api/gateway-error';
import { GLOBAL_ERROR_STATUSES } from '../../app/error-catalogue';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { RouteHeading } from '../RouteHeading';
import { FormAlert } from '../shared/FormAlert';
import { actingForName } from './acting-for-name';
import '../../../widgets/widgets.css';
import './concierge.css';

type FieldErrorKey = 'error.required' | 'error.invalid' | 'error.notFound';

/** ADR 0014's field code of an act-for refusal, as the text key shown next to the field. */
function fieldErrorOf(code: string, field: string | undefined): FieldErrorKey | null {
  if (code === 'USER_NOT_FOUND') return 'error.notFound';
  if (field === 'required') return 'error.required';
  if (field === 'invalid') return 'error.invalid';
  return null;
}

/**
 * ADR 0014 concierge screen (SPEC §6 CONCIERGE): a support agent finds a card holder by e-mail and
 * starts acting for them (then goes to their profile), or sees who they act for now. Stopping is the
 * banner's (`ConciergeBanner`), shown above every screen while acting.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const text = useText('concierge');
  const actingFor = useGetActingForQuery({ siteId }).data ?? null;
  const [actFor, { isLoading }] = useActForMutation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<FieldErrorKey | null>(null);
  const [failed, setFailed] = useState(false);
  const inputId = useId();
  const errorId = `${inputId}-error`;

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    const address = email.trim();
    const local = address === '' ? 'error.required' : validateEmail(address) ? 'error.invalid' : null;
    setFieldError(local);
    if (local) return;
    const answer = await actFor({ siteId, email: address });
    if (!answer.error) {
      void navigate(`${basePath}profile${search}`);
      return;
    }
    const error = asGatewayError(answer.error);
    const key = fieldErrorOf(error.code, error.fields?.email);
    setFieldError(key);
    // §8 shows 0/500/502/524 in the global alert; anything else unexpected is said here.
    setFailed(key === null && !GLOBAL_ERROR_STATUSES.has(error.status));
  };

  return (
    <section className="concierge" aria-busy={isLoading}>
      <RouteHeading route="concierge" />
      <p className="concierge__intro">{text('intro')}</p>
      <p className="concierge__current" role="status">
        {actingFor ? text('current.actingFor', { name: actingForName(actingFor) }) : text('current.none')}
        {actingFor && (
          <>
            {' '}
            <Link to={`${basePath}profile${search}`}>{text('openProfile')}</Link>
          </>
        )}
      </p>
      {failed && <FormAlert kind="error" message={text('error.failed')} />}
      <form className="site-form concierge__form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            {text('email.label')}
          </label>
          <input
            id={inputId}
            className="field__input"
            type="email"
            name="email"
            autoComplete="off"
            value={email}
            maxLength={254}
            required
            aria-invalid={fieldError !== null}
            aria-describedby={fieldError ? errorId : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setFieldError(null);
            }}
          />
          {fieldError && (
            <p id={errorId} className="field__error" role="alert">
              {text(fieldError)}
            </p>
          )}
        </div>
        <div className="site-form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {text('submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
