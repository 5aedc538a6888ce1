import { useId, useRef, useState, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation } from 'react-router-dom';
import { formatDate } from '../../schemas/locales/intl-format';
import { Modal } from '../../widgets/cards/Modal';
import {
  useGetSessionsQuery,
  useRevokeOtherSessionsMutation,
  useRevokeSessionMutation,
  type DeviceNames,
  type HolderSession,
  type HolderTrustedDevice,
} from '../api/sessions-api';
import { asGatewayError } from '../api/gateway-error';
import { notificationShown } from '../app/alerts-slice';
import { useText, type TextLookup } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import '../../widgets/widgets.css';
import './profile/profile.css';
import './profile/signed-in-devices.css';

/** "Chrome on Android" in the page's language; the browser or the system alone when only one is known. */
export function deviceName(device: DeviceNames, text: TextLookup): string {
  if (device.browser !== null && device.os !== null) return text('devices.browserOnOs', { browser: device.browser, os: device.os });
  return device.browser ?? device.os ?? text('devices.unknown');
}

/**
 * Signed-in devices (docs/decisions/0025-fresh-proof.md "Sessions the holder can see"; Google's "Your devices"): where
 * the account is signed in now, on this site and the other sites of the account, each with its site, device, the
 * network it was first used from, when it signed in and was last active; "This device" for the one in hand, a "Sign
 * out" for each other one, and "Sign out everywhere else" behind a confirmation. The devices trusted to skip the
 * passcode are listed too. Times are the reader's local time in the page's language.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const text = useText('profile');
  const dispatch = useDispatch();
  // Each visit shows the list as it is now: last use moves, and other devices sign in and out meanwhile.
  const list = useGetSessionsQuery({ siteId }, { refetchOnMountOrArgChange: true });
  const [revokeSession] = useRevokeSessionMutation();
  const [revokeOthers, othersEnding] = useRevokeOtherSessionsMutation();
  const [ending, setEnding] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  // Each date sits in its own isolate (ADR 0013): its Latin digits keep their order inside a right-to-left line.
  const when = (iso: string) => formatDate(new Date(iso), locale, { dateStyle: 'medium', timeStyle: 'short' });

  const signOut = async (session: HolderSession) => {
    setFailure(null);
    setEnding(session.id);
    const result = await revokeSession({ siteId, id: session.id });
    setEnding(null);
    // SESSION_NOT_FOUND: it ended meanwhile (elsewhere, or it expired), which is what was asked.
    if (result.error !== undefined && asGatewayError(result.error).code !== 'SESSION_NOT_FOUND') {
      setFailure(text('devices.signOutFailed'));
      return;
    }
    dispatch(notificationShown({ id: 'device-signed-out', kind: 'success', message: text('devices.signedOut', { device: deviceName(session.device, text) }) }));
    // The button pressed is gone with its row: the list's heading takes the focus, so the reader is not left nowhere.
    listHeading.current?.focus();
  };

  const signOutEverywhereElse = async () => {
    setFailure(null);
    const result = await revokeOthers({ siteId });
    setConfirming(false);
    if (result.error !== undefined) {
      setFailure(text('devices.everywhereFailed'));
      return;
    }
    dispatch(notificationShown({ id: 'devices-signed-out', kind: 'success', message: text('devices.everywhereDone') }));
    listHeading.current?.focus();
  };

  let body;
  if (list.data === undefined) {
    body = list.isError ? (
      <p className="alert alert--error" role="alert">
        {text('devices.failed')}
      </p>
    ) : (
      <p className="profile-loading" role="status">
        <span className="profile-loading__spinner" aria-hidden="true" />
        {text('devices.loading')}
      </p>
    );
  } else {
    const { sessions, trustedDevices } = list.data;
    const others = sessions.filter((session) => !session.current);
    body = (
      <>
        <section className="profile-panel" aria-labelledby={`${ids}-sessions`}>
          <h2 ref={listHeading} id={`${ids}-sessions`} className="profile-panel__title" tabIndex={-1}>
            {text('devices.sessionsTitle')}
          </h2>
          <ul className="devices">
            {sessions.map((session, index) => {
              const nameId = `${ids}-session-${index}`;
              return (
                <li key={session.id} className="device">
                  <DeviceHeading id={nameId} name={deviceName(session.device, text)} current={session.current} text={text} />
                  <dl className="profile-details device__details">
                    <Detail label={text('devices.site')}>
                      <span translate="no">{session.site.name}</span>
                    </Detail>
                    <Detail label={text('devices.firstAddress')}>
                      {/* An address reads left to right on a right-to-left page too. */}
                      {session.firstAddress === null ? text('devices.addressUnknown') : <span dir="ltr">{session.firstAddress}</span>}
                    </Detail>
                    <Detail label={text('devices.signedIn')}>
                      <bdi>
                        <time dateTime={session.createdAt}>{when(session.createdAt)}</time>
                      </bdi>
                    </Detail>
                    <Detail label={text('devices.lastActive')}>
                      {session.current ? (
                        text('devices.activeNow')
                      ) : (
                        <bdi>
                          <time dateTime={session.lastUsedAt}>{when(session.lastUsedAt)}</time>
                        </bdi>
                      )}
                    </Detail>
                  </dl>
                  {!session.current && (
                    <button
                      type="button"
                      className="button button--secondary device__sign-out"
                      aria-describedby={nameId}
                      disabled={ending !== null}
                      aria-busy={ending === session.id}
                      onClick={() => void signOut(session)}
                    >
                      {text('devices.signOut')}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length === 0 && <p className="profile-panel__intro devices__only-this">{text('devices.onlyThis')}</p>}
          <p className="devices__note">{text('devices.addressNote')}</p>
        </section>

        {trustedDevices.length > 0 && <TrustedDevices devices={trustedDevices} text={text} when={when} headingId={`${ids}-trusted`} />}

        {(others.length > 0 || trustedDevices.length > 0) && (
          <section className="profile-panel devices__everywhere" aria-label={text('devices.everywhere')}>
            <p className="profile-panel__intro">{text('devices.everywhereIntro')}</p>
            <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
              {text('devices.everywhere')}
            </button>
          </section>
        )}
      </>
    );
  }

  return (
    <section className="profile signed-in-devices" aria-busy={list.isLoading}>
      <Breadcrumb />
      <RouteHeading route="signed-in-devices" />
      <p className="profile-panel__intro">{text('devices.intro')}</p>
      {failure !== null && (
        <p className="alert alert--error" role="alert">
          {failure}
        </p>
      )}
      {body}
      <p className="profile-back">
        <Link to={`${basePath}profile${search}`}>{text('backToProfile')}</Link>
      </p>
      {confirming && (
        <Modal
          title={text('devices.everywhereTitle')}
          closeLabel={text('devices.close')}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setConfirming(false)} disabled={othersEnding.isLoading}>
                {text('devices.cancel')}
              </button>
              <button
                type="button"
                className="button button--danger"
                onClick={() => void signOutEverywhereElse()}
                disabled={othersEnding.isLoading}
                aria-busy={othersEnding.isLoading}
              >
                {text('devices.everywhereConfirm')}
              </button>
            </>
          }
        >
          <p>{text('devices.everywhereDescription')}</p>
        </Modal>
      )}
    </section>
  );
}

function DeviceHeading({ id, name, current, text }: { id: string; name: string; current: boolean; text: TextLookup }) {
  return (
    <div className="device__head">
      <h3 id={id} className="device__name">
        {name}
      </h3>
      {current && <span className="badge badge--positive">{text('devices.thisDevice')}</span>}
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="profile-details__row">
      <dt className="profile-details__label">{label}</dt>
      <dd className="profile-details__value">{children}</dd>
    </div>
  );
}

function TrustedDevices({
  devices,
  text,
  when,
  headingId,
}: {
  devices: readonly HolderTrustedDevice[];
  text: TextLookup;
  when: (iso: string) => string;
  headingId: string;
}) {
  return (
    <section className="profile-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="profile-panel__title">
        {text('devices.trustedTitle')}
      </h2>
      <p className="profile-panel__intro">{text('devices.trustedIntro')}</p>
      <ul className="devices">
        {devices.map((device) => (
          <li key={device.id} className="device">
            <DeviceHeading id={`${headingId}-${device.id}`} name={deviceName(device.device, text)} current={device.current} text={text} />
            <dl className="profile-details device__details">
              <Detail label={text('devices.site')}>
                <span translate="no">{device.site.name}</span>
              </Detail>
              <Detail label={text('devices.trustedSince')}>
                <bdi>
                  <time dateTime={device.createdAt}>{when(device.createdAt)}</time>
                </bdi>
              </Detail>
              <Detail label={text('devices.trustedUntil')}>
                <bdi>
                  <time dateTime={device.expiresAt}>{when(device.expiresAt)}</time>
                </bdi>
              </Detail>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
