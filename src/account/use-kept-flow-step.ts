import { useEffect } from 'react';
import { useHydrated } from '../../widgets/form-engine/use-hydrated';
import { useSiteLocation } from '../site/use-site-location';
import { dropFlowStep, keepFlowStep, readFlowStep, type KeptFlow } from './form-drafts';

/**
 * Where a multi-step flow stands (ADR 0019 "Flow steps"), the one mechanism every flow uses: the step the store
 * holds now is kept in this tab's session storage (never a secret), and when the store has none (the page was
 * reloaded, or the person came back with Back/Forward after the store was emptied) the kept step answers, read
 * through `parse`, which checks its shape. The kept step is used only once the page is the browser's own (ADR 0024):
 * a page the server sent is hydrated with what the server drew, which knew no step. With `startAfresh` the screen
 * was entered anew (a link, not a reload or Back/Forward): the kept step is not read, and it is dropped.
 */
export function useKeptFlowStep<Step extends Readonly<Record<string, unknown>>>(
  flow: KeptFlow,
  current: Step | null,
  parse: (kept: Readonly<Record<string, unknown>>) => Step | null,
  { startAfresh = false }: { startAfresh?: boolean } = {},
): Step | null {
  const { siteId } = useSiteLocation();
  const hydrated = useHydrated();
  useEffect(() => {
    if (startAfresh) dropFlowStep(flow);
  }, [flow, startAfresh]);
  // Compared by what it holds: a screen may build the step afresh on every render.
  const currentJson = current === null ? null : JSON.stringify(current);
  useEffect(() => {
    if (currentJson !== null) keepFlowStep(flow, siteId, JSON.parse(currentJson) as Record<string, unknown>);
  }, [flow, siteId, currentJson]);
  if (current !== null) return current;
  if (!hydrated || startAfresh) return null;
  const kept = readFlowStep(flow, siteId);
  return kept === null ? null : parse(kept);
}
