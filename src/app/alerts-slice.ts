import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * How long a notice stays (SPEC §2 "notification alerts"): `page` notices belong to the page
 * they were raised on and go when the holder moves to another page; a `next-page` notice is
 * raised just before the screen navigates (SPEC §2: the standalone card form sends the holder
 * to /profile with the card-added banner), shows on the page it lands on, and goes after the
 * navigation after that.
 */
export type NotificationLifetime = 'page' | 'next-page';

/**
 * A notice above the routed screen (SPEC §2 "notification alerts"; SPEC §3 banner ids such as
 * card-added), its message already read from content by the screen that raised it (values such
 * as an X-CID filled in).
 */
export interface Notification {
  id: string;
  kind: 'success' | 'error' | 'info';
  message: string;
  /** `page` when left out. */
  lifetime?: NotificationLifetime;
}

export interface AlertsState {
  /** §8 global error alert; `reference` is the server's X-CID for the placeholder. */
  globalError: { reference: string | null } | null;
  notifications: Notification[];
  /** The path the notices were last checked against (null before the first page). */
  page: string | null;
}

const initialState: AlertsState = { globalError: null, notifications: [], page: null };

export const alertsSlice = createSlice({
  name: 'alerts',
  initialState,
  reducers: {
    globalErrorShown(state, action: PayloadAction<{ reference: string | null }>) {
      state.globalError = { reference: action.payload.reference };
    },
    /** §8 "A successful response hides the alert." */
    globalErrorHidden(state) {
      state.globalError = null;
    },
    /** One notice per id: a second one with the same id (a new failure, a new X-CID) replaces the first. */
    notificationShown(state, action: PayloadAction<Notification>) {
      state.notifications = [...state.notifications.filter((notification) => notification.id !== action.payload.id), action.payload];
    },
    /** The holder closed one notice; closing one that is already gone (a double click) changes nothing. */
    notificationDismissed(state, action: PayloadAction<{ id: string }>) {
      state.notifications = state.notifications.filter((notification) => notification.id !== action.payload.id);
    },
    /**
     * The holder submits a form: a success notice said what the last step did ("your password was
     * reset") and is not true of the new attempt, so it goes rather than stand above its error.
     */
    successNoticesHidden(state) {
      state.notifications = state.notifications.filter((notification) => notification.kind !== 'success');
    },
    /**
     * The holder is on another page: `page` notices go, `next-page` notices have reached the
     * page they were meant for and become this page's. The same path again (a query change,
     * a re-render) changes nothing.
     */
    pageChanged(state, action: PayloadAction<{ path: string }>) {
      if (state.page === action.payload.path) return;
      const firstPage = state.page === null;
      state.page = action.payload.path;
      if (firstPage) return;
      state.notifications = state.notifications
        .filter((notification) => notification.lifetime === 'next-page')
        .map((notification) => ({ ...notification, lifetime: 'page' }));
    },
    /** §8 "closing clears error and notifications". */
    alertsClosed(state) {
      return { ...initialState, page: state.page };
    },
  },
});

/**
 * The notices to draw on `path`, decided while rendering: the path the store last saw may lag
 * one commit behind the screen (pageChanged runs in an effect), and a notice of the page just
 * left must not be drawn over the next page even for that commit. Same rule as pageChanged.
 */
export function noticesOnPage(state: AlertsState, path: string): Notification[] {
  if (state.page === null || state.page === path) return state.notifications;
  return state.notifications.filter((notification) => notification.lifetime === 'next-page');
}

export const { globalErrorShown, globalErrorHidden, notificationShown, notificationDismissed, successNoticesHidden, pageChanged, alertsClosed } =
  alertsSlice.actions;
