import { Component as ReactComponent, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { JsonSchema, UiSchema } from '../../schemas/forms/json-schema';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import { siteLocalesOf } from '../../schemas/site-config/site-locales';
import type { SiteConfig } from '../../schemas/site-config/types';
import { formTextsFromContent, type FormTexts } from '../../widgets/form-engine/form-texts';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { CardFormPreviews, type ContentGroups } from './CardFormPreviews';
import { studioApi, type CheckAnswer, type DiffAnswer, type StudioStart } from './studio-api';
import { messagesAt, messageText, parseSiteText, placeOf, siteText, valueLabels, withSetting, type CheckMessage, type StudioSite } from './studio-model';
import './studio.css';

/** The forms the previews draw: what a card holder fills or sees with the site's settings, the card forms last. */
const PREVIEW_FORMS = ['registration', 'edit-profile', 'profile-view', 'card forms'] as const;
type PreviewForm = (typeof PREVIEW_FORMS)[number];
const TOP_LEVEL = '(top level)';
/** Field names of the editor's forms: a setting such as `address.zipcode` would read as a path in the form engine. */
const fieldName = (key: string): string => key.replaceAll('.', '__');
const settingKey = (field: string): string => field.replaceAll('__', '.');

/**
 * The site studio (docs/decisions/0027-site-studio.md, README "The site studio"): a site file written in a form the
 * product's own form engine draws from the format, beside its JSON; its registration and profile forms previewed at
 * 390 px in every locale of the site; `sites:check`'s verdict at each setting; and a save that shows its diff first.
 * Compiled in only in development or with VITE_SITE_STUDIO=true; served by `npm run studio`.
 */
export function Component() {
  const [start, setStart] = useState<StudioStart | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Site studio';
    document.documentElement.lang = 'en';
    void studioApi.start().then((answer) => (answer.ok ? setStart(answer.data) : setStartError(answer.refusal.message)));
  }, []);
  return (
    <div className="studio">
      <header className="studio__header">
        <h1 className="studio__title">Site studio</h1>
        <p className="studio__lead">Write a site file, see its forms as card holders will, and save it once sites:check passes.</p>
      </header>
      <StudioBoundary where="the studio">
        {startError !== null ? <p role="alert">{startError}</p> : start === null ? <p role="status">Loading the studio…</p> : <Studio start={start} />}
      </StudioBoundary>
    </div>
  );
}

/** A part that throws shows what happened in its place, never a blank page. */
class StudioBoundary extends ReactComponent<{ where: string; children: ReactNode; reset?: unknown }, { error: Error | null; reset?: unknown }> {
  override state: { error: Error | null; reset?: unknown } = { error: null, reset: this.props.reset };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  static getDerivedStateFromProps(props: { reset?: unknown }, state: { error: Error | null; reset?: unknown }) {
    return props.reset === state.reset ? null : { error: null, reset: props.reset };
  }
  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <p role="alert" className="studio__broken">
        {this.props.where} could not be drawn from this site: {this.state.error.message}. Fix the setting the check names, or the JSON view.
      </p>
    );
  }
}

interface Opened {
  siteId: string;
  version: string | null;
}

function Studio({ start }: { start: StudioStart }) {
  const [text, setText] = useState(start.templates[0]?.text ?? '');
  const [site, setSite] = useState<StudioSite | null>(() => {
    const parsed = parseSiteText(start.templates[0]?.text ?? '');
    return parsed.ok ? parsed.site : null;
  });
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [openMessage, setOpenMessage] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<CheckAnswer | null>(null);

  const edit = useCallback((next: string) => {
    setText(next);
    const parsed = parseSiteText(next);
    if (parsed.ok) {
      setSite(parsed.site);
      setJsonError(null);
    } else
      setJsonError(
        `The JSON view is not a site file at line ${parsed.line}, column ${parsed.column}: ${parsed.message}. The form shows the last site that was.`,
      );
  }, []);
  const editSite = (next: StudioSite) => edit(siteText(next));
  const checkNow = () => void studioApi.check(text).then((answer) => answer.ok && setVerdict(answer.data));

  // The check `sites:check` runs, a moment after the last change.
  useEffect(() => {
    const timer = setTimeout(() => void studioApi.check(text).then((answer) => answer.ok && setVerdict(answer.data)), 350);
    return () => clearTimeout(timer);
  }, [text]);

  const openFrom = async (choice: string) => {
    setOpenMessage(null);
    const template = start.templates.find(({ id }) => `template:${id}` === choice);
    if (template) {
      edit(template.text);
      setOpened(null);
      return;
    }
    const siteId = choice.replace(/^site:/, '');
    const answer = await studioApi.site(siteId);
    if (!answer.ok) {
      setOpenMessage(answer.refusal.message);
      return;
    }
    edit(answer.data.text);
    setOpened({ siteId, version: answer.data.version });
  };

  const mistakes = verdict?.mistakes ?? [];
  const warnings = (verdict?.warnings ?? []).map((message): CheckMessage => ({ ...message, warning: true }));
  const unplaced = [...mistakes, ...warnings].filter((message) => placeOf(message.path).kind === 'site');
  return (
    <div className="studio__body">
      <div className="studio__toolbar">
        <label>
          Start from{' '}
          <select defaultValue="" onChange={(event) => event.target.value !== '' && void openFrom(event.target.value)} aria-label="Start from">
            <option value="">a template or a bundled site…</option>
            <optgroup label="Templates">
              {start.templates.map((template) => (
                <option key={template.id} value={`template:${template.id}`}>
                  {template.title}
                </option>
              ))}
            </optgroup>
            <optgroup label="Bundled sites">
              {start.sites.map((bundled) => (
                <option key={bundled.siteId} value={`site:${bundled.siteId}`}>
                  {bundled.name} ({bundled.siteId})
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        {openMessage !== null && <p role="alert">{openMessage}</p>}
        <VerdictSummary verdict={verdict} />
      </div>
      {unplaced.length > 0 && <MessageList messages={unplaced} label="About the whole site" />}
      <div className="studio__columns">
        <section className="studio__editor" aria-label="Settings">
          <h2>Settings</h2>
          {site === null ? (
            <p>The JSON view holds no site yet.</p>
          ) : (
            // The JSON view stays beside whatever the form cannot draw, so the text is never lost.
            <StudioBoundary where="The settings form" reset={text}>
              <SettingsEditor start={start} site={site} messages={[...mistakes, ...warnings]} onChange={editSite} onCheck={checkNow} />
            </StudioBoundary>
          )}
        </section>
        <section className="studio__json" aria-label="JSON view">
          <h2>JSON</h2>
          {/* Above the text: the text is taller than the window, and a message under it went unseen. */}
          {jsonError !== null && (
            <p id="studio-json-error" role="alert" className="studio__message studio__message--mistake">
              {jsonError}
            </p>
          )}
          <MessageList messages={[...mistakes, ...warnings].filter((message) => placeOf(message.path).kind === 'json')} label="In the JSON text" />
          <textarea
            aria-label="Site file (JSON)"
            aria-invalid={jsonError !== null || undefined}
            aria-describedby={jsonError !== null ? 'studio-json-error' : undefined}
            spellCheck={false}
            value={text}
            onChange={(event) => edit(event.target.value)}
          />
        </section>
      </div>
      {site !== null && (
        <StudioBoundary where="The previews" reset={text}>
          <Previews site={site} values={verdict?.values ?? null} />
        </StudioBoundary>
      )}
      {site !== null && <SavePanel site={site} text={text} opened={opened} passed={verdict !== null && mistakes.length === 0} onSaved={setOpened} />}
    </div>
  );
}

function VerdictSummary({ verdict }: { verdict: CheckAnswer | null }) {
  if (verdict === null) return <p role="status">Checking…</p>;
  const { mistakes, warnings } = verdict;
  return (
    <p role="status" className={mistakes.length === 0 ? 'studio__verdict studio__verdict--passed' : 'studio__verdict studio__verdict--failed'}>
      sites:check: {mistakes.length === 0 ? 'passes' : `${mistakes.length} ${mistakes.length === 1 ? 'mistake' : 'mistakes'}`}
      {warnings.length > 0 ? `, ${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'}` : ''}
    </p>
  );
}

function MessageList({ messages, label }: { messages: readonly CheckMessage[]; label: string }) {
  if (messages.length === 0) return null;
  return (
    <ul className="studio__messages" aria-label={label}>
      {messages.map((message) => (
        <li
          key={`${message.path} ${message.expected} ${message.actual ?? ''}`}
          className={message.warning === true ? 'studio__message studio__message--warning' : 'studio__message'}
        >
          <code>{message.path}</code> {messageText(message)}
        </li>
      ))}
    </ul>
  );
}

/** Each feature's settings as a form of the product's own engine, each setting's ADR 0001 text as its tooltip, its verdict under it. */
function SettingsEditor(props: {
  start: StudioStart;
  site: StudioSite;
  messages: readonly CheckMessage[];
  onChange: (site: StudioSite) => void;
  onCheck: () => void;
}) {
  const { start, site, messages, onChange, onCheck } = props;
  const present = new Set(site.siteFeatureConfigurations.map(({ name }) => name));
  const addable = Object.keys(start.features).filter((name) => !present.has(name));
  const topKeys = ['name', 'siteId', 'theme'];
  return (
    <>
      <fieldset className="studio__feature">
        <legend>The site</legend>
        <SettingsForm
          id="top"
          settings={Object.fromEntries(topKeys.map((key) => [key, key === 'theme' ? { type: 'string', enum: ['classic', 'vpp'] } : { type: 'string' }]))}
          help={start.help.settings[TOP_LEVEL] ?? {}}
          meanings={start.help.values}
          values={{ name: site.name, siteId: site.siteId, ...(site.theme === undefined ? {} : { theme: site.theme }) }}
          messagesOf={(key) => messagesAt(messages, { kind: 'top', key })}
          onChange={(key, value) => onChange({ ...site, [key]: value ?? '' })}
          onCheck={onCheck}
        />
      </fieldset>
      {site.siteFeatureConfigurations.map((feature, index) => {
        const settings = start.features[feature.name];
        const featureMessages = messagesAt(messages, { kind: 'feature', feature: index });
        return (
          <fieldset key={`${index} ${feature.name}`} className="studio__feature">
            <legend>{feature.name}</legend>
            <MessageList messages={featureMessages} label={`About ${feature.name}`} />
            {settings === undefined ? (
              <p className="studio__message studio__message--mistake">Not a feature of the format: rename it in the JSON view, or remove it.</p>
            ) : (
              <SettingsForm
                id={`feature-${index}`}
                settings={settings}
                help={start.help.settings[feature.name] ?? {}}
                meanings={start.help.values}
                values={feature.featureConfig ?? {}}
                messagesOf={(key) => messagesAt(messages, { kind: 'setting', feature: index, key })}
                onChange={(key, value) => onChange(withSetting(site, index, key, value))}
                onCheck={onCheck}
              />
            )}
            <button
              type="button"
              onClick={() => onChange({ ...site, siteFeatureConfigurations: site.siteFeatureConfigurations.filter((_, at) => at !== index) })}
            >
              Remove {feature.name}
            </button>
          </fieldset>
        );
      })}
      {addable.length > 0 && (
        <label className="studio__add">
          Add a feature{' '}
          <select
            value=""
            onChange={(event) =>
              event.target.value !== '' &&
              onChange({ ...site, siteFeatureConfigurations: [...site.siteFeatureConfigurations, { name: event.target.value, featureConfig: {} }] })
            }
          >
            <option value="">choose…</option>
            {addable.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}

/**
 * One group of settings drawn by SiteForm from the format's own schema nodes. Labels, tooltips and the verdicts are
 * the engine's texts: `studio.{group}.{key}` is the key, its `.tooltip` the ADR 0001 text, and a verdict shows as the
 * field's server error (SiteForm `serverErrors`), under the field.
 */
function SettingsForm(props: {
  id: string;
  settings: Record<string, Record<string, unknown>>;
  help: Record<string, string>;
  meanings: StudioStart['help']['values'];
  values: Record<string, string>;
  messagesOf: (key: string) => CheckMessage[];
  onChange: (key: string, value: string | undefined) => void;
  onCheck: () => void;
}) {
  const { id, settings, help, meanings, values, messagesOf, onChange, onCheck } = props;
  const keys = Object.keys(settings);
  const texts: Record<string, string> = {};
  const uiSchema: UiSchema = {};
  const serverErrors: Record<string, string> = {};
  const properties: Record<string, JsonSchema> = {};
  for (const key of keys) {
    const labelKey = `studio.${id}.${fieldName(key)}`;
    texts[labelKey] = key;
    if (help[key] !== undefined) texts[`${labelKey}.tooltip`] = help[key];
    const messages = messagesOf(key);
    if (messages.length > 0) {
      texts[`${labelKey}.verdict`] = messages.map(messageText).join(' — ');
      serverErrors[fieldName(key)] = `${labelKey}.verdict`;
    }
    // The format's node without its enum-as-text description: RJSF would print it under the field.
    const { description: _description, ...node } = settings[key] ?? {};
    properties[fieldName(key)] = node;
    // A coded setting's options say what each code does, as its tooltip says what the setting does.
    const labels = valueLabels(key, node, meanings);
    for (const [value, label] of Object.entries(labels ?? {})) texts[`${labelKey}.value.${value}`] = label;
    uiSchema[fieldName(key)] = { 'ui:options': labels === null ? { labelKey } : { labelKey, enumKeyPrefix: `${labelKey}.value.` } };
  }
  const data = Object.fromEntries(keys.flatMap((key) => (values[key] === undefined ? [] : [[fieldName(key), values[key]]])));
  const [given, setGiven] = useState<SiteFormData>(data);
  const dataText = JSON.stringify(data);
  const [givenText, setGivenText] = useState(dataText);
  if (givenText !== dataText) {
    setGivenText(dataText);
    setGiven(data);
  }
  return (
    <SiteForm
      idPrefix={id}
      schema={{ type: 'object', properties }}
      uiSchema={uiSchema}
      texts={texts}
      language="en"
      formData={given}
      serverErrors={serverErrors}
      submitText="Check now"
      onSubmit={onCheck}
      onChange={(next) => {
        for (const field of Object.keys(properties)) {
          const before = data[field];
          const value = next[field];
          const after = typeof value === 'string' ? value : undefined;
          if (before !== after) onChange(settingKey(field), after);
        }
      }}
    />
  );
}

/** Each locale's texts, fetched once per locale: as the forms read them, and by group for the card widgets. */
function useLocaleTexts(locales: readonly string[]): Record<string, { form: FormTexts; groups: ContentGroups }> {
  const [texts, setTexts] = useState<Record<string, { form: FormTexts; groups: ContentGroups }>>({});
  const key = locales.join(' ');
  useEffect(() => {
    for (const locale of key.split(' ')) {
      void studioApi.content(locale).then((answer) => {
        if (answer.ok)
          setTexts((known) => ({
            ...known,
            [locale]: {
              form: formTextsFromContent({ form: answer.data.form, optins: answer.data.optins, common: answer.data.common }),
              groups: answer.data,
            },
          }));
      });
    }
  }, [key]);
  return texts;
}

/** The site's forms at 390 px, one per locale of the site, drawn as the portal draws them. */
function Previews({ site, values }: { site: StudioSite; values: CheckAnswer['values'] }) {
  const [form, setForm] = useState<PreviewForm>('registration');
  const [typed, setTyped] = useState<Record<string, SiteFormData> | null>(null);
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  const config = site as unknown as SiteConfig;
  const locales = useMemo(() => siteLocalesOf(config), [config]);
  const texts = useLocaleTexts(locales);
  const typeable = values !== null && (form === 'registration' || form === 'edit-profile');
  return (
    <section className="studio__previews" aria-label="Previews">
      <h2>Previews at 390 px</h2>
      <div className="studio__preview-controls">
        <div role="tablist" aria-label="Forms">
          {PREVIEW_FORMS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={name === form}
              onClick={() => {
                setForm(name);
                setTyped(null);
                setAccepted(new Set());
              }}
            >
              {name}
            </button>
          ))}
        </div>
        <button
          type="button"
          disabled={!typeable}
          onClick={() => {
            if (values === null) return;
            setAccepted(new Set());
            setTyped(Object.fromEntries(locales.map((locale) => [locale, values[locale]?.[form] ?? {}])));
          }}
        >
          Type the simulated values
        </button>
      </div>
      <div className="studio__preview-row">
        {locales.map((locale) => {
          if (form === 'card forms')
            return (
              <div key={locale} className="studio__phone" aria-label={`${form} in ${locale}`} role="region" lang={localeToLanguageTag(locale)}>
                <p className="studio__phone-label">{locale}</p>
                <CardFormPreviews site={config} groups={texts[locale]?.groups ?? {}} languageTag={localeToLanguageTag(locale)} />
              </div>
            );
          const built = buildFormSchema(config, locale, form);
          return (
            <div key={locale} className="studio__phone" aria-label={`${form} in ${locale}`} role="region" lang={localeToLanguageTag(locale)}>
              <p className="studio__phone-label">{locale}</p>
              <SiteForm
                key={`${locale} ${form} ${typed === null ? 'empty' : 'typed'}`}
                idPrefix={`preview_${locale}`}
                schema={built.schema}
                uiSchema={built.uiSchema}
                texts={texts[locale]?.form}
                language={localeToLanguageTag(locale)}
                formData={typed?.[locale]}
                onSubmit={() => setAccepted((known) => new Set(known).add(locale))}
              />
              {accepted.has(locale) && (
                <p role="status" className="studio__message studio__message--saved">
                  The browser accepts this {form} form in {locale}; the gateway runs the same validators.
                </p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The save: the diff against the file on disk first, then the write, each refusal in words at the save. */
function SavePanel({
  site,
  text,
  opened,
  passed,
  onSaved,
}: {
  site: StudioSite;
  text: string;
  opened: Opened | null;
  passed: boolean;
  onSaved: (opened: Opened) => void;
}) {
  const [diff, setDiff] = useState<DiffAnswer | null>(null);
  // A message is about the text it was answered for; an edit or another site since makes it stale, so it goes.
  const [message, setMessage] = useState<{ kind: 'refused' | 'saved'; text: string; forText: string } | null>(null);
  const version = opened !== null && opened.siteId === site.siteId ? opened.version : null;
  const refused = (answer: { refusal: { message: string; mistakes?: CheckMessage[] } }) =>
    setMessage({
      kind: 'refused',
      text: [answer.refusal.message, ...(answer.refusal.mistakes ?? []).map((m) => `${m.path}: ${messageText(m)}`)].join('\n'),
      forText: text,
    });
  const showDiff = async () => {
    setMessage(null);
    const answer = await studioApi.diff(site.siteId, text, version);
    if (answer.ok) setDiff(answer.data);
    else {
      setDiff(null);
      refused(answer);
    }
  };
  const save = async () => {
    const answer = await studioApi.save(site.siteId, text, version);
    setDiff(null);
    if (!answer.ok) {
      refused(answer);
      return;
    }
    onSaved({ siteId: site.siteId, version: answer.data.version });
    setMessage({ kind: 'saved', text: `Saved ${answer.data.saved}.`, forText: text });
  };
  return (
    <section className="studio__save" aria-label="Save">
      <h2>Save</h2>
      <p>
        Writes fixtures/sites/{site.siteId}.json{passed ? '' : ' once sites:check passes'}. The diff against the file on disk comes first.
      </p>
      <button type="button" onClick={() => void showDiff()} disabled={!passed}>
        Show the diff
      </button>
      {diff !== null && (
        <>
          <p>
            {diff.isNew ? 'A new file' : 'Changes to'} {diff.file}:
          </p>
          <pre className="studio__diff" aria-label="Diff">
            {diff.diff
              .filter((line) => line.kind !== 'kept')
              .map((line, index) => (
                <span key={index} className={`studio__diff-${line.kind}`}>
                  {line.kind === 'added' ? '+ ' : '- '}
                  {line.text}
                  {'\n'}
                </span>
              ))}
          </pre>
          <button type="button" onClick={() => void save()}>
            Save {diff.file}
          </button>
        </>
      )}
      {message !== null && message.forText === text && (
        <p
          role={message.kind === 'refused' ? 'alert' : 'status'}
          className={`studio__message studio__message--${message.kind === 'refused' ? 'mistake' : 'saved'}`}
        >
          {message.text}
        </p>
      )}
    </section>
  );
}
