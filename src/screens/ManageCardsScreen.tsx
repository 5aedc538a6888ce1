import { useIsConcierge } from '../auth/use-is-concierge';
import { CardsEditor } from './cards/CardsEditor';
import { ProfileCards } from './cards/ProfileCards';
import { StandaloneCards } from './cards/StandaloneCards';
import { useCardModule } from './cards/use-card-module';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';

/**
 * SPEC §2 edit-pan: manage cards (the route loader loads the profile and assets). The standalone
 * form on vpp-tenant sites, else the managed list or the edit/delete form (CardsEditor); a site
 * whose pan_capture lacks the call options shows SPEC §8's module-options error instead. A support
 * agent acting for the holder reads the cards and is told why there is nothing to change: the gateway
 * lists them for an agent but leaves adding, removing and choosing the default to the holder (ADR 0014).
 */
export function Component() {
  const module = useCardModule();
  const concierge = useIsConcierge();
  if (!module.ready) return null;
  return (
    <section className="cards-screen">
      <Breadcrumb />
      <RouteHeading route="edit-pan" />
      {concierge ? (
        <>
          <FormAlert kind="info" message={module.text('agent.readOnly')} />
          <ProfileCards />
        </>
      ) : module.options === null ? (
        <FormAlert kind="error" message={module.optionsError ?? ''} />
      ) : module.standalone ? (
        <StandaloneCards module={module} options={module.options} />
      ) : (
        <CardsEditor module={module} options={module.options} />
      )}
    </section>
  );
}
