import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * A notice above the routed screen (SPEC §2 "notification alerts"; SPEC §3 banner ids such as
 * card-added), its message already read from content by the screen that raised it (values such
 * as an X-CID filled in).
 */
export interface Notification {
  id: string;
  kind: 'success' | 'error' | 'info';
  message: string;
}

export interface AlertsState {
  /** §8 global error alert; `reference` is the server's X-CID for the placeholder. */
  globalError: { reference: string | null } | null;
  notifications: Notification[];
}

const initialState: AlertsState = { globalError: null, notifications: [] };

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
    /** §8 "closing clears error and notifications". */
    alertsClosed() {
      return initialState;
    },
  },
});

export const { globalErrorShown, globalErrorHidden, notificationShown, alertsClosed } = alertsSlice.actions;
