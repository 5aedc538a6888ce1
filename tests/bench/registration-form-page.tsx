import { createRoot } from 'react-dom/client';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../schemas/site-config/types';
import { SiteForm } from '../../widgets/SiteForm';
import largestSite from '../../fixtures/sites/dohabank.json';

/**
 * The bench's stand-in for the registration route, without its screen: React, the
 * form engine, every widget and the translator drawing the largest fixture's registration form.
 * Its first-load JS is what that route will cost at least.
 */
const { schema, uiSchema } = buildFormSchema(largestSite as unknown as SiteConfig, 'en_us', 'registration');
const container = document.getElementById('root');
if (container) createRoot(container).render(<SiteForm schema={schema} uiSchema={uiSchema} onSubmit={() => undefined} />);
