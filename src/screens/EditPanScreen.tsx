import { CardsEditor } from './cards/CardsEditor';
import { StandaloneCards } from './cards/StandaloneCards';
import { useCardModule } from './cards/use-card-module';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';

/**
 * SPEC §2 edit-pan: manage cards (the route loader loads the profile and assets). The standalone
 * form on vpp-tenant sites, else the managed list or the edit/delete form (CardsEditor); a site
 * whose pan_capture lacks the call options shows SPEC §8's module-options error instead.
 */
export function Component() {
  const module = useCardModule();
  if (!module.ready) return null;
  return (
    <section className="cards-screen">
      <Breadcrumb />
      <RouteHeading route="edit-pan" />
      {module.options === null ? (
        <FormAlert kind="error" message={module.optionsError ?? ''} />
      ) : module.standalone ? (
        <StandaloneCards module={module} options={module.options} />
      ) : (
        <CardsEditor module={module} options={module.options} />
      )}
    </section>
  );
}
