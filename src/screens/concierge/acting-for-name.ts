import type { ActingFor } from '../../api/concierge-api';

/** "Emily Carter": the display name of the card holder acted for (ADR 0014 support details). */
export function actingForName(actingFor: ActingFor): string {
  return [actingFor.firstName, actingFor.lastName].filter(Boolean).join(' ');
}
