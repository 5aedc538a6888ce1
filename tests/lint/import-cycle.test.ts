import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The repository's eslint.config.js, narrowed to the cycle rule (tests/lint/no-import-cycle.js) and parsed
// without type information. Each text stands in for the file at its path; the rest of the graph is the tree.
const eslint = new ESLint({
  cwd: REPO_ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'house/no-import-cycle',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function messagesFor(filePath: string, text: string): Promise<string[]> {
  const results = await eslint.lintText(text, { filePath });
  return results.flatMap((result) => result.messages.map((message) => message.message));
}

describe('no import closes a circle of our modules (README "Architecture")', () => {
  it('refuses the security code rule importing the form texts that import it, naming the circle', async () => {
    const messages = await messagesFor(
      'schemas/validators/cvv.ts',
      "import { CVV_EXPECTED_FORMAT } from '../forms/expected-format';\nexport const used = CVV_EXPECTED_FORMAT;\n",
    );
    expect(messages).toEqual([
      'Import cycle: schemas/validators/cvv.ts → schemas/forms/expected-format.ts → schemas/validators/cvv.ts. Move what both need into the lower file, or a new one both import.',
    ]);
  });

  it('counts a type-only import: the browser storage taking a type from the client that imports it', async () => {
    const messages = await messagesFor(
      'src/app/browser-storage.ts',
      "import type { GatewayClientDeps } from '../api/gateway-api';\nexport type Used = GatewayClientDeps;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Import cycle: src\/app\/browser-storage\.ts → src\/api\/gateway-api\.ts → .*src\/app\/browser-storage\.ts\./);
  });

  it('finds a circle through several files', async () => {
    // json-schema.ts → validators/index.ts → validators/cvv.ts → forms/expected-format.ts → json-schema.ts
    const messages = await messagesFor(
      'schemas/validators/cvv.ts',
      "import type { ExpectedFormat } from '../forms/expected-format';\nexport type Used = ExpectedFormat;\n",
    );
    expect(messages).toHaveLength(1);
  });

  it('allows the arrows of the tree as they are', async () => {
    const messages = await messagesFor(
      'schemas/forms/expected-format.ts',
      "import { CVV_PATTERN } from '../validators/cvv';\nimport type { RuleOptionValue } from './json-schema';\nexport const used: RuleOptionValue = CVV_PATTERN;\n",
    );
    expect(messages).toEqual([]);
  });
});
