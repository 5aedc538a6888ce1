import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { CardModuleOptions } from '../../../schemas/cards/card-config';
import { cardNumberProblem } from '../../../schemas/cards/card-rules';
import { CardsLoadingOverlay } from '../../../widgets/cards/CardsLoadingOverlay';
import { StandaloneCardForm } from '../../../widgets/cards/StandaloneCardForm';
import { useSiteLocation } from '../../site/use-site-location';
import { notificationShown } from '../../app/alerts-slice';
import { useCardActions } from './use-card-actions';
import type { CardModule } from './use-card-module';

type ReadyModule = Extract<CardModule, { ready: true }>;

/**
 * SPEC §2 standalone (isVpp) card form: after adding, the holder goes to /profile with the
 * card-added banner; an enrolment failure goes there too, as the error banner with its X-CID
 * (SPEC §8). A refused number stays on the form with the invalid-number text.
 */
export function StandaloneCards({ module, options }: { module: ReadyModule; options: CardModuleOptions }) {
  const { config, text, invalidText } = module;
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const actions = useCardActions(module, options);

  const submit = async (value: string, cvv?: string): Promise<string | { cvvError: string } | null> => {
    const outcome = await actions.add(value, cvv, 'next-page');
    if (!outcome.added && outcome.cvvError) return { cvvError: outcome.cvvError };
    if (!outcome.added && outcome.error !== null) return outcome.error;
    if (outcome.added) {
      dispatch(notificationShown({ id: 'card-added', kind: 'success', message: config.texts.panAddSuccessMessage ?? text('panAdded'), lifetime: 'next-page' }));
    }
    void navigate(`${basePath}profile${search}`);
    return null;
  };

  return (
    <>
      <StandaloneCardForm
        label={config.texts.label ?? text('cardNumber')}
        placeholder={config.texts.placeholder}
        maxLength={config.maxLength}
        termsText={config.texts.optInText ?? text('terms')}
        submitText={config.texts.submitText ?? text('addCard')}
        checkingText={text('checking')}
        cancel={
          <Link className="button button--secondary" to={`${basePath}profile`}>
            {config.texts.panCancelButtonText ?? text('cancel')}
          </Link>
        }
        checkNumber={(value) =>
          cardNumberProblem(value, { required: true, standalone: true, maxInputLength: config.maxLength }) === null ? null : (config.texts.error ?? invalidText)
        }
        onSubmit={submit}
        cvvTexts={module.cvvTexts}
      />
      {actions.enrolling && <CardsLoadingOverlay label={text('enrolling')} />}
    </>
  );
}
