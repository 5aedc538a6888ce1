import { createSlice } from '@reduxjs/toolkit';
import { gatewayResponded } from '../api/gateway-events';

/** ADR 0009: the gateway's code for an account held until it replaces a breached password. */
export const PASSWORD_CHANGE_REQUIRED = 'PASSWORD_CHANGE_REQUIRED';

/**
 * Whether the gateway holds the signed-in account until it replaces a breached password (ADR 0009
 * "Compromised credentials"), as the gateway's own answers say: any call refused with
 * PASSWORD_CHANGE_REQUIRED sets it, a profile the gateway hands over again (or the replacement
 * itself) clears it. The route guards read it, so a reload or a typed URL cannot step around it.
 */
export const passwordChangeSlice = createSlice({
  name: 'passwordChange',
  initialState: { required: false },
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(gatewayResponded, (state, { payload }) => {
      if (payload.code === PASSWORD_CHANGE_REQUIRED) state.required = true;
      else if (payload.status >= 200 && payload.status < 300 && /^user-mgmt\/user\/(?:find|vba\/compromised-password)$/.test(payload.url))
        state.required = false;
    });
  },
});
