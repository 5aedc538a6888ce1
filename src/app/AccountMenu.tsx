import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { nameInitials } from './name-initials';
import { Link, useLocation } from 'react-router-dom';
import { useText } from '../content/use-text';
import type { ActingFor } from '../api/concierge-api';
import { actingForName } from '../screens/concierge/acting-for-name';
import { useStopActing } from '../screens/concierge/use-stop-acting';
import { ACCOUNT_MENU_ROUTES } from '../screens/profile/profile-links';
import { useRouteTitle } from './screen-title';
import { useSiteLocation } from '../site/use-site-location';
import { useSignedInVisitor, type SignedInVisitor } from './use-signed-in-visitor';
import './account-menu.css';

/**
 * The header's account menu on every page of a signed-in visitor; nothing for anyone else. Each of
 * ACCOUNT_MENU_ROUTES shows only when its guards let this visitor in (useSignedInVisitor().allowed → decideRoute).
 */
export default function AccountMenu() {
  const visitor = useSignedInVisitor();
  return visitor === null ? null : <AccountMenuDisclosure visitor={visitor} />;
}

/**
 * A disclosure (WAI-ARIA APG "disclosure navigation"), not an ARIA menu: a button with
 * aria-expanded/aria-controls over a list of links, so screen readers and Tab work as on any links.
 * Escape closes it and gives focus back to the button; a click or focus outside and every
 * navigation close it.
 */
function AccountMenuDisclosure({ visitor }: { visitor: SignedInVisitor }) {
  const { basePath, route: currentRoute } = useSiteLocation();
  const { pathname, search } = useLocation();
  const common = useText('common');
  const titleOf = useRouteTitle();
  // Open on the page it was opened on: a navigation closes it in the same render, never one later.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);
  const root = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  const onBlur = (event: FocusEvent) => {
    const next = event.relatedTarget;
    if (next instanceof Node && !root.current?.contains(next)) setOpen(false);
  };

  const { profile, actingFor } = visitor;
  // Names stored before they were trimmed (schemas/forms/normalise-form-data.ts) are shown trimmed too.
  const holderName = [profile?.firstName?.trim(), profile?.lastName?.trim()].filter(Boolean).join(' ');
  // An agent's button names their role; the card holder they act for is named inside (ADR 0014).
  const label = visitor.concierge ? common('title.concierge') : holderName || common('accountMenu.neutralName');
  const initials = visitor.concierge || holderName === '' ? '' : nameInitials(profile?.firstName, profile?.lastName);

  return (
    <nav ref={root} className="account-menu" aria-label={common('accountMenu.label')} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button ref={button} type="button" className="account-menu__button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        {initials !== '' && (
          <span className="account-menu__initials" aria-hidden="true">
            {initials}
          </span>
        )}
        <span className="account-menu__name">{label}</span>
        <span className="account-menu__chevron" aria-hidden="true" />
      </button>
      <div id={panelId} className="account-menu__panel" hidden={!open}>
        {actingFor !== null && <ActingForName actingFor={actingFor} />}
        <ul className="account-menu__links">
          {visitor.allowed(ACCOUNT_MENU_ROUTES).map((route) => (
            <li key={route}>
              {/* Each link reads as the title of the page it opens (for an agent, named for the card holder: ADR 0014); the menu needs no content group beyond common. */}
              <Link className="account-menu__link" to={`${basePath}${route}${search}`} aria-current={route === currentRoute ? 'page' : undefined}>
                {/* Once the authenticator is on, its page is no longer a set-up (SPEC §2 mfa-setup; the page's own heading says so too). */}
                {route === 'mfa-setup' && visitor.profile?.mfaEnrollmentStatus === 'ENROLLED' ? common('title.mfa-setup.on') : titleOf(route)}
              </Link>
            </li>
          ))}
        </ul>
        <div className="account-menu__end">
          {actingFor !== null && <StopActingButton />}
          {/* The logout route runs the site's own sign-out (SPEC §2/§4 logout; on an SSO site it ends on redirect-sso, ADR 0015). */}
          <Link className="account-menu__action account-menu__sign-out" to={`${basePath}logout${search}`}>
            {common('title.logout')}
          </Link>
        </div>
      </div>
    </nav>
  );
}

/** ADR 0014: whom the agent acts for (the concierge texts load only for an agent). */
function ActingForName({ actingFor }: { actingFor: ActingFor }) {
  const concierge = useText('concierge');
  return <p className="account-menu__acting-for">{concierge('banner.actingFor', { name: actingForName(actingFor) })}</p>;
}

function StopActingButton() {
  const concierge = useText('concierge');
  const { stop, stopping } = useStopActing();
  return (
    <button type="button" className="account-menu__action" onClick={() => void stop()} disabled={stopping}>
      {concierge('banner.stop')}
    </button>
  );
}
