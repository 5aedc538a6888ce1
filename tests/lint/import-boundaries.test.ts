import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The repository's eslint.config.js, narrowed to the boundary rule and parsed without type information:
// the boundaries read an import's text, and a type-checked program would cost seconds per file.
const eslint = new ESLint({
  cwd: REPO_ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** What ESLint reports for one import in a file at `filePath`: rule ids, or the message of a parse failure. */
async function findingsFor(filePath: string, importLine: string): Promise<string[]> {
  const results = await eslint.lintText(`${importLine}\nexport const used = imported;\n`, { filePath });
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message));
}

// README "Architecture": each row is a file in a folder and an import the table forbids there.
const FORBIDDEN: [filePath: string, importLine: string][] = [
  ['schemas/site-config/example.ts', "import imported from 'react';"],
  ['schemas/site-config/example.ts', "import imported from 'react-dom/client';"],
  ['schemas/site-config/example.ts', "import imported from 'node:fs/promises';"],
  ['schemas/site-config/example.ts', "import imported from 'path';"],
  ['schemas/site-config/example.ts', "import imported from '../../src/store';"],
  ['schemas/site-config/example.ts', "import imported from '../../gateway/server';"],
  ['schemas/site-config/example.ts', "import imported from '../../widgets/registry';"],
  ['schemas/site-config/example.ts', "import imported from '../../fixtures/default-site.json';"],
  ['schemas/example.ts', "import imported from '../widgets/registry';"],
  ['src/routes/example.ts', "import imported from '../../gateway/server';"],
  ['src/routes/example.ts', "import type imported from '../../gateway/db/database';"],
  ['src/routes/example.ts', "import imported from '../../tests/support/summary-reporter';"],
  ['src/routes/example.ts', "import imported from '../../fixtures/sites/unionbank.json';"],
  ['src/main-example.tsx', "import imported from '../gateway/main';"],
  ['src/screens/profile/example.tsx', "import imported from '../../../gateway/main';"],
  ['gateway/auth/example.ts', "import imported from '../../src/store';"],
  ['gateway/auth/example.ts', "import imported from '../../widgets/SiteForm';"],
  ['gateway/auth/example.ts', "import imported from '../../fixtures/content/en_us.json';"],
  ['gateway/auth/example.ts', "import imported from 'react';"],
  ['gateway/auth/example.ts', "import imported from 'react-dom/server';"],
  ['gateway/example.ts', "export { imported } from '../src/store';"],
  ['gateway/features/user-auth/example.ts', "import imported from '../../../src/store';"],
  ['gateway/features/content-config/example.ts', "import imported from '../../../fixtures/default-site.json';"],
  ['widgets/cards/example.tsx', "import imported from '../../gateway/main';"],
  ['widgets/cards/example.tsx', "import imported from '../../src/store';"],
  ['widgets/cards/example.tsx', "import imported from '../../fixtures/analytics/tags.json';"],
  ['widgets/example.tsx', "import imported from '../src/store';"],
];

// Imports the table allows, including a folder's own subfolders that share a name with a top-level folder.
const ALLOWED: [filePath: string, importLine: string][] = [
  ['schemas/site-config/example.ts', "import imported from 'ajv';"],
  ['schemas/site-config/example.ts', "import imported from '../validators/email';"],
  ['src/routes/example.ts', "import imported from 'react';"],
  ['src/routes/example.ts', "import imported from '../../schemas/site-config/types';"],
  ['src/routes/example.ts', "import imported from '../../widgets/SiteForm';"],
  ['src/routes/example.ts', "import imported from '../../fixtures/content/en_us.json';"],
  ['src/routes/example.ts', "import imported from '../../fixtures/analytics/tags.json';"],
  ['src/routes/example.ts', "import imported from '../../fixtures/default-site.json';"],
  ['src/screens/profile/example.tsx', "import imported from '../../../schemas/site-config/types';"],
  ['gateway/auth/example.ts', "import imported from 'node:crypto';"],
  ['gateway/auth/example.ts', "import imported from '../../schemas/site-config/fixture-format';"],
  ['gateway/auth/example.ts', "import imported from '../site-files/load-fixtures';"],
  ['gateway/features/user-auth/example.ts', "import imported from '../../../schemas/api/request-schemas';"],
  ['gateway/features/content-config/example.ts', "import imported from '../../site-files/load-fixtures';"],
  ['widgets/cards/example.tsx', "import imported from 'react';"],
  ['widgets/cards/example.tsx', "import imported from '../../schemas/validators';"],
  ['widgets/cards/example.tsx', "import imported from '../../fixtures/content/en_us.json';"],
  ['widgets/cards/example.tsx', "import imported from '../inputs/SelectWidget';"],
  ['tests/src/example.test.ts', "import imported from '../../gateway/main';"],
];

describe('import boundaries of the README architecture table (eslint.config.js)', () => {
  it.each(FORBIDDEN)('%s: reports %s', async (filePath, importLine) => {
    expect(await findingsFor(filePath, importLine)).toEqual(['no-restricted-imports']);
  });

  it.each(ALLOWED)('%s: allows %s', async (filePath, importLine) => {
    expect(await findingsFor(filePath, importLine)).toEqual([]);
  });
});
