import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { FORM_NAMES, isFormName, type FormName } from '../../schemas/forms/form-names';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { useGetContentQuery } from '../api/content-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { isLocaleCode } from '../site/resolve-site';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import { useGetGallerySitesQuery, useValidateOnGatewayMutation, type GatewayVerdict } from './gallery-api';
import './gallery.css';

/**
 * The site gallery (README "Architecture"): every site, and for each its forms drawn live beside the
 * schema that draws them, so a configuration author sees a new fixture's forms at once and QA can
 * look at every site. A submit shows the browser's verdict and asks the gateway for its own: one
 * schema, two places (DESIGN). Compiled in only in development or with VITE_SITE_GALLERY=true.
 */
export function Component() {
  // Mounted at /gallery/*: the first segment after it names the site.
  const siteId = useParams()['*']?.split('/')[0] || undefined;
  const sites = useGetGallerySitesQuery();

  useEffect(() => {
    document.title = siteId ? `Site gallery - ${siteId}` : 'Site gallery';
    document.documentElement.lang = 'en';
  }, [siteId]);

  return (
    <div className="gallery">
      <header className="gallery__header">
        <h1 className="gallery__title">Site gallery</h1>
        <p className="gallery__lead">Every site&apos;s forms, drawn from its configuration, beside the schema that draws them.</p>
      </header>
      <div className="gallery__body">
        <nav className="gallery__sites" aria-label="Sites">
          {sites.isError ? (
            <p role="alert">The site list is off: start the gateway with SITE_GALLERY=true.</p>
          ) : (
            <ul>
              {(sites.data ?? []).map((site) => (
                <li key={site.siteId}>
                  <Link to={`/gallery/${site.siteId}`} aria-current={site.siteId === siteId ? 'page' : undefined}>
                    <span className="gallery__site-name">{site.name}</span>
                    <span className="gallery__site-id">{site.siteId}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <main className="gallery__main">{siteId ? <SiteForms siteId={siteId} /> : <p>Choose a site.</p>}</main>
      </div>
    </div>
  );
}

function SiteForms({ siteId }: { siteId: string }) {
  const [search, setSearch] = useSearchParams();
  const formParam = search.get('form') ?? 'registration';
  const form: FormName = isFormName(formParam) ? formParam : 'registration';
  const localeParam = search.get('locale') ?? 'en_us';
  const locale = isLocaleCode(localeParam) ? localeParam : 'en_us';

  const site = useGetSiteConfigQuery(siteId);
  const formContent = useGetContentQuery({ siteId, locale, contentType: 'form' });
  const optinsContent = useGetContentQuery({ siteId, locale, contentType: 'optins' });
  const commonContent = useGetContentQuery({ siteId, locale, contentType: 'common' });
  const texts = useMemo(
    () => formTextsFromContent({ form: formContent.data, optins: optinsContent.data, common: commonContent.data }),
    [formContent.data, optinsContent.data, commonContent.data],
  );
  const formSchema = useMemo(() => (site.data ? buildFormSchema(site.data, locale, form) : null), [site.data, locale, form]);
  const [verdict, setVerdict] = useState<GatewayVerdict | null>(null);
  const [validateOnGateway, gatewayCall] = useValidateOnGatewayMutation();

  const choose = (changes: Record<string, string>) => {
    setVerdict(null);
    setSearch((current) => ({ ...Object.fromEntries(current), ...changes }));
  };
  const submit = async (data: SiteFormData) => {
    setVerdict(null);
    const answer = await validateOnGateway({ siteId, locale, form, payload: data });
    if ('data' in answer && answer.data) setVerdict(answer.data);
  };

  if (site.isLoading) return <p>Loading {siteId}…</p>;
  if (!site.data || !formSchema) return <p role="alert">The configuration of {siteId} could not be loaded.</p>;

  return (
    <section aria-labelledby="gallery-site-heading">
      <h2 id="gallery-site-heading">
        {site.data.name} <span className="gallery__site-id">{site.data.siteId}</span>
      </h2>
      <div className="gallery__controls">
        <label>
          Locale{' '}
          <input
            defaultValue={locale}
            pattern="[a-z]{2}_[a-z]{2}"
            size={6}
            onBlur={(event) => isLocaleCode(event.target.value) && choose({ locale: event.target.value })}
          />
        </label>
        <div role="tablist" aria-label="Forms" className="gallery__tabs">
          {FORM_NAMES.map((name) => (
            <button key={name} type="button" role="tab" aria-selected={name === form} onClick={() => choose({ form: name })}>
              {name}
            </button>
          ))}
        </div>
      </div>
      <div className="gallery__columns">
        <div className="gallery__form" role="tabpanel" aria-label={`${form} form`}>
          <SiteForm
            key={`${siteId}/${locale}/${form}`}
            schema={formSchema.schema}
            uiSchema={formSchema.uiSchema}
            texts={texts}
            language={localeToLanguageTag(locale)}
            onSubmit={(event) => void submit(event)}
          />
          <GatewayVerdictPanel verdict={verdict} pending={gatewayCall.isLoading} failed={gatewayCall.isError} />
        </div>
        <pre className="gallery__schema" aria-label={`${form} schema and uiSchema`} tabIndex={0}>
          {JSON.stringify(formSchema, null, 2)}
        </pre>
      </div>
    </section>
  );
}

function GatewayVerdictPanel({ verdict, pending, failed }: { verdict: GatewayVerdict | null; pending: boolean; failed: boolean }) {
  if (pending) return <p role="status">Asking the gateway…</p>;
  if (failed) return <p role="alert">The gateway could not be asked.</p>;
  if (!verdict) return null;
  return (
    <div role="status" className={verdict.valid ? 'gallery__verdict gallery__verdict--valid' : 'gallery__verdict gallery__verdict--invalid'}>
      <p>Valid in the browser. Gateway: {verdict.valid ? 'valid' : 'refused'}.</p>
      {!verdict.valid && (
        <ul>
          {Object.entries(verdict.fields).map(([field, key]) => (
            <li key={field}>
              {field}: {key}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
