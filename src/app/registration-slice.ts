import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The registration flow's data between its steps (SPEC §2: add-pan redirects to /registration when
 * no registration data exists). The registration screen stores the form's data when the site captures
 * cards at sign-up; add-pan sends it with the cards. In memory only (it holds the password), never in
 * storage, and dropped once the registration is sent.
 */
export interface RegistrationState {
  data: Readonly<Record<string, unknown>> | null;
}

const initialState: RegistrationState = { data: null };

export const registrationSlice = createSlice({
  name: 'registration',
  initialState,
  reducers: {
    registrationDataStored(state, action: PayloadAction<Record<string, unknown>>) {
      state.data = action.payload;
    },
    registrationEnded(state) {
      state.data = null;
    },
  },
});

export const { registrationDataStored, registrationEnded } = registrationSlice.actions;
