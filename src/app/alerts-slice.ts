import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A notice above the routed screen (SPEC §2 "notification alerts"), its text by content key. */
export interface Notification {
  id: string;
  kind: 'success' | 'error' | 'info';
  textKey: string;
  fallbackText: string;
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
    notificationShown(state, action: PayloadAction<Notification>) {
      if (!state.notifications.some((notification) => notification.id === action.payload.id)) state.notifications.push(action.payload);
    },
    /** §8 "closing clears error and notifications". */
    alertsClosed() {
      return initialState;
    },
  },
});

export const { globalErrorShown, globalErrorHidden, notificationShown, alertsClosed } = alertsSlice.actions;
