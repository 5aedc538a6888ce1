import { createAction, type Action } from '@reduxjs/toolkit';
import { INITIAL_AUTH_STATE, transition, type AuthEvent, type AuthState } from './auth-machine';

/** Every change of the auth state is one machine event; the reducer is the machine's transition. */
export const authEvent = createAction<AuthEvent>('auth/event');

export function authReducer(state: AuthState = INITIAL_AUTH_STATE, action: Action): AuthState {
  return authEvent.match(action) ? transition(state, action.payload).state : state;
}
