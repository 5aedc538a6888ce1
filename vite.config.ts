/// <reference types="vitest/config" />
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { APP_MODULES_PLACEHOLDER, SERVER_BUILD_FOLDER, SERVER_RENDER_FILE } from './schemas/pages/server-page.ts';
import JourneysFirstSequencer from './tests/support/journeys-first-sequencer.ts';

/**
 * @rjsf/core's Form imports its default registry (every field, template and widget RJSF ships);
 * ours holds only what the translator's schemas reach (docs/decisions/0016).
 */
function rjsfLeanDefaultRegistry(): Plugin {
  const leanRegistry = fileURLToPath(new URL('./widgets/form-engine/rjsf-default-registry.ts', import.meta.url));
  return {
    name: 'rjsf-lean-default-registry',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '../getDefaultRegistry.js' && importer?.replaceAll('\\', '/').endsWith('/@rjsf/core/lib/components/Form.js')) return leanRegistry;
      return null;
    },
  };
}

/**
 * Every app build brings its server build (docs/decisions/0024): `src/server/render-page.tsx` bundled whole
 * into `{outDir}/server/render-page.js`, which the gateway loads to send first screens as HTML. Built from
 * the same sources in the same run, so the markup it renders is the markup the browser's code hydrates.
 */
function appServerBuild(): Plugin {
  let resolved: ResolvedConfig | undefined;
  return {
    name: 'app-server-build',
    // Only the app's own build: a build given its own input (the bench's single pages, tests/bench/bench-pages.ts)
    // has no use for the server bundle.
    apply: (config, env) => env.command === 'build' && env.isSsrBuild !== true && !config.build?.ssr && config.build?.rolldownOptions?.input === undefined,
    configResolved(config) {
      resolved = config;
    },
    async closeBundle() {
      if (resolved === undefined) return;
      await build({
        configFile: resolved.configFile,
        root: resolved.root,
        mode: resolved.mode,
        logLevel: resolved.logLevel,
        // The gateway loads one file with nothing to resolve beside it, wherever the build folder is.
        ssr: { noExternal: true, target: 'node' },
        // React's build of the browser's (the JSX transform of this build is that mode's too), whatever NODE_ENV the
        // gateway runs under: production for `vite build`, development under the test runner (NODE_ENV=test).
        define: { 'process.env.NODE_ENV': JSON.stringify(resolved.isProduction ? 'production' : 'development') },
        build: {
          ssr: 'src/server/render-page.tsx',
          outDir: join(resolved.build.outDir, SERVER_BUILD_FOLDER),
          emptyOutDir: true,
          copyPublicDir: false,
          minify: false,
          rolldownOptions: { output: { entryFileNames: SERVER_RENDER_FILE, codeSplitting: false } },
        },
      });
    },
  };
}

/** The placeholder as a JSON string inside the entry's code; the list's JSON takes its place (src/boot.ts parses it). */
const APP_MODULES_JSON_PLACEHOLDER = JSON.stringify(APP_MODULES_PLACEHOLDER);

/**
 * The JavaScript files the entry's `import()`s bring, each with what it imports in turn, in the order they are asked for;
 * the entry and its own imports (the page's script tags) left out.
 */
function dynamicModuleFiles(entry: Rolldown.OutputChunk, bundle: Rolldown.OutputBundle): string[] {
  const files = new Set<string>();
  const excluded = new Set([entry.fileName, ...entry.imports]);
  for (const dynamicImport of entry.dynamicImports) {
    const queue = [dynamicImport];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const output = bundle[file];
      if (excluded.has(file) || files.has(file) || output?.type !== 'chunk') continue;
      files.add(file);
      queue.push(...output.imports);
    }
  }
  return [...files];
}

/**
 * The entry gets the list of the app's module files written into its own code (ADR 0024): a page the server rendered
 * adds their preloads itself after its first paint, a few per task (src/boot.ts). Vite's preloading would add them all
 * in one task, about 100 ms at 4x CPU right after the paint (README "Benchmark" total blocking time). In the entry,
 * not in index.html: there it cost every page half a kilobyte before its first paint. The entry's file name still
 * tells its content: a change to any of these files changes their names, hence the entry's `import()`s and its hash.
 */
function appModulesList(): Plugin {
  let base = '/';
  return {
    name: 'app-modules-list',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    // After Vite's own clean-up of the bundle (it drops the chunks that held only CSS, which the graph still names).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || !output.isEntry) continue;
          if (!output.code.includes(APP_MODULES_JSON_PLACEHOLDER)) {
            if (output.facadeModuleId?.endsWith('/src/boot.ts'))
              this.error(`src/boot.ts lost the ${APP_MODULES_JSON_PLACEHOLDER} its module list is written over`);
            continue;
          }
          const hrefs = dynamicModuleFiles(output, bundle).map((file) => `${base}${file}`);
          // Inside the entry's string literal: a built file's name has no quote, backslash or `${` to end it.
          output.code = output.code.replace(APP_MODULES_JSON_PLACEHOLDER, () => JSON.stringify(hrefs));
        }
      },
    },
  };
}

// One config for the app build and the test runner. The app is served under any
// /{issuer}/{locale}/account/ path, so assets are referenced from the root.
export default defineConfig({
  plugins: [react(), rjsfLeanDefaultRegistry(), appServerBuild(), appModulesList()],
  // The dev server pre-bundles @rjsf/core on its own; it gets the same registry as the build.
  optimizeDeps: { rolldownOptions: { plugins: [rjsfLeanDefaultRegistry()] } },
  base: '/',
  resolve: {
    // RJSF's Markdown parser is never used by our forms (docs/decisions/0006): plain text instead.
    alias: [{ find: /^markdown-to-jsx\/react$/, replacement: fileURLToPath(new URL('./widgets/form-engine/plain-text-markdown.tsx', import.meta.url)) }],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    // One stylesheet for every screen (about 6 KB gzip): a screen the server rendered is styled at its first paint,
    // before its code arrives (ADR 0024).
    cssCodeSplit: false,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/gateway/api': 'http://127.0.0.1:8080',
      '/offers': 'http://127.0.0.1:8080',
      '/offersdata': 'http://127.0.0.1:8080',
      // SPEC §7 promotions hosts' configuration, a page-root path the gateway serves.
      '^/[a-z]{2}_[a-z]{2}/account/configurations/': 'http://127.0.0.1:8080',
    },
  },
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    sequence: { sequencer: JourneysFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: ['tests/e2e/**', 'tests/gateway/**', 'node_modules/**'],
          environment: 'node',
          setupFiles: ['tests/support/testing-library-setup.ts'],
          // RJSF goes through this config's plugins and aliases, so forms are tested as they ship (ADR 0016).
          server: { deps: { inline: ['@rjsf/core'] } },
          testTimeout: 20_000,
          // Two files at a time on the two cores (Vitest would take one: cores minus one); unit and gateway
          // files share the pool, so the reporter's wall times of the two overlap.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'gateway',
          include: ['tests/gateway/**/*.test.ts'],
          environment: 'node',
          // The gateway process tests run the built gateway, as `npm start` does.
          globalSetup: ['tests/support/gateway-build-setup.ts'],
          testTimeout: 20_000,
          // A file's set-up opens a database and builds a gateway; beside another file on two busy cores that took
          // over Vitest's default 10 s (health.test.ts, twice in full runs).
          hookTimeout: 60_000,
          // Each database test has a schema of its own (tests/gateway/support/database-legs.ts) and each
          // process a free port, so two files run side by side.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          // The security suite (README "Set-up"): a browser test that saw a CSP violation fails.
          // A failing browser test keeps a screenshot of every page it had open.
          setupFiles: ['tests/e2e/support/no-csp-violations.ts', 'tests/e2e/support/keep-failure-screenshots.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // After the unit and gateway files (a group of its own), three browser files at a time: a browser file
          // mostly waits on its pages; two at a time used about a quarter of the two cores (ADR 0004).
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          // A page under load can take more than expect.poll's default second to draw what a test waits for.
          expect: { poll: { timeout: 5_000 } },
          // The journey matrices run this many sites' journeys side by side in one browser (each its own
          // context); more only queue behind the two cores.
          maxConcurrency: 3,
        },
      },
    ],
  },
});
