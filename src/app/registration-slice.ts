import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The registration flow's data between its steps (SPEC §2: add-pan redirects to /registration when
 * no registration data exists). The registration screen (a later issue) stores it.
 */
export interface RegistrationState {
  data: Readonly<Record<string, unknown>> | null;
}

export const registrationSlice = createSlice({
  name: 'registration',
  initialState: { data: null } as RegistrationState,
  reducers: {
    registrationDataStored(state, action: PayloadAction<Record<string, unknown>>) {
      state.data = action.payload;
    },
  },
});

export const { registrationDataStored } = registrationSlice.actions;
