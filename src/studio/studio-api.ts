import type { CheckMessage } from './studio-model';

/** The studio server's calls (gateway/features/site-studio/studio-routes.ts), at `/api/site-studio/` of the page's own origin. */
const BASE = '/api/site-studio';

export interface StudioStart {
  sites: { siteId: string; name: string }[];
  templates: { id: string; title: string; text: string }[];
  /**
   * ADR 0001: `settings`, "what it does" by feature ("(top level)" for the top keys), then key; `values`, what each
   * value of a coded setting means (`level`: the requirement level codes, `privacy_policy_display`).
   */
  help: { settings: Record<string, Record<string, string>>; values: Record<string, Record<string, string>> };
  /** Each feature's settings as JSON Schema nodes (schemas/site-config/fixture-format.ts FEATURE_SETTINGS). */
  features: Record<string, Record<string, Record<string, unknown>>>;
  sitePattern: string;
}

export interface CheckAnswer {
  mistakes: CheckMessage[];
  warnings: CheckMessage[];
  /** The simulation's values by locale, then form, for the preview's button; null when the lint stopped the check. */
  values: Record<string, Record<string, Record<string, unknown>>> | null;
}

export interface Refusal {
  error: string;
  message: string;
  field?: string;
  mistakes?: CheckMessage[];
}

export interface DiffAnswer {
  diff: { kind: 'kept' | 'added' | 'removed'; text: string }[];
  file: string;
  isNew: boolean;
}

export type Answer<T> = { ok: true; data: T } | { ok: false; refusal: Refusal };

async function call<T>(path: string, init?: { method: string; body: unknown }): Promise<Answer<T>> {
  try {
    const response = await fetch(
      `${BASE}${path}`,
      init ? { method: init.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : undefined,
    );
    const body = (await response.json()) as T | Refusal;
    return response.ok ? { ok: true, data: body as T } : { ok: false, refusal: body as Refusal };
  } catch (error) {
    return {
      ok: false,
      refusal: { error: 'STUDIO_UNREACHABLE', message: `The studio server did not answer (${(error as Error).message}); is npm run studio still running?` },
    };
  }
}

export const studioApi = {
  start: () => call<StudioStart>('/start'),
  site: (siteId: string) => call<{ text: string; version: string | null }>(`/sites/${encodeURIComponent(siteId)}`),
  content: (locale: string) => call<Record<string, Record<string, string>>>(`/content/${encodeURIComponent(locale)}`),
  check: (text: string) => call<CheckAnswer>('/check', { method: 'POST', body: { text } }),
  diff: (siteId: string, text: string, version: string | null) =>
    call<DiffAnswer>(`/sites/${encodeURIComponent(siteId)}/diff`, { method: 'POST', body: { text, version } }),
  save: (siteId: string, text: string, version: string | null) =>
    call<{ saved: string; version: string }>(`/sites/${encodeURIComponent(siteId)}`, { method: 'PUT', body: { text, version } }),
};
