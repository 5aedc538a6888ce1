import { useEffect, useRef } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation } from 'react-router-dom';
import { textOf } from '../content/texts';
import { useContentTexts } from '../content/use-content-texts';
import type { RootState } from '../store';
import { noticesOnPage, notificationDismissed, pageChanged } from './alerts-slice';

/**
 * SPEC §2 notification alerts (the §3 banners card-added, card-removed, default-card, and the
 * profile-saved and password notices): a success is announced politely (`role="status"`), an
 * error at once (`role="alert"`); each has a close button, and a notice goes when the holder
 * moves to another page unless it was raised for the next page (alerts-slice lifetimes).
 */
export function NotificationAlerts() {
  const alerts = useSelector((state: RootState) => state.alerts);
  const common = useContentTexts('common');
  const dispatch = useDispatch();
  const { pathname } = useLocation();
  const notifications = noticesOnPage(alerts, pathname);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dispatch(pageChanged({ path: pathname }));
  }, [pathname, dispatch]);

  /** Focus stays in the page: on the next notice's close button, else on the page's heading. */
  const dismiss = (id: string) => {
    const closeButtons = [...(list.current?.querySelectorAll<HTMLButtonElement>('.alert__close') ?? [])];
    const next = closeButtons.find((button) => button.dataset.notice !== id);
    const heading = list.current?.closest('main')?.querySelector<HTMLElement>('h1') ?? null;
    dispatch(notificationDismissed({ id }));
    if (next) next.focus();
    else if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  };

  if (notifications.length === 0) return null;
  const dismissLabel = textOf(common, 'notice.dismiss', 'Dismiss notice');
  return (
    <div className="notifications" ref={list}>
      {notifications.map((notification) => {
        const messageId = `notice-${notification.id}`;
        return (
          <div key={notification.id} className={`alert alert--${notification.kind}`} role={notification.kind === 'error' ? 'alert' : 'status'}>
            <p className="alert__message" id={messageId}>
              {notification.message}
            </p>
            <button
              type="button"
              className="alert__close"
              data-notice={notification.id}
              aria-label={dismissLabel}
              aria-describedby={messageId}
              onClick={() => dismiss(notification.id)}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
