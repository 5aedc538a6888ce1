/**
 * The production path of README "Production" (ADR 0018), as a deployment runs it: `npm run build` in a checkout,
 * then, in a folder holding only the build, the package files and the fixtures, `npm ci --omit=dev` and
 * `npm run start:prod`. That copy has no devDependency (no Vite, no TypeScript, no tsx), so a start that builds or
 * compiles, or a bundle that imports a development package, fails here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../gateway/cli/gateway-bundle';
import { SERVER_PAGE_DATA_ID } from '../../schemas/pages/server-page';
import { freePort } from '../support/free-port';

interface PackageFile {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface LockFile {
  packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
}
const packageFile = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageFile;
const lockFile = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as LockFile;
/** The gateway bundle the unit project's global setup built, with its migrations beside it, as `npm run build` makes it. */
const gatewayBuildDir = dirname(inject('portalGateway').entry);

/** The package an import specifier names (`@scope/name/sub` is `@scope/name`), or undefined for Node's own modules. */
function packageOf(specifier: string): string | undefined {
  if (isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

it('the gateway bundle imports only Node modules and packages declared in dependencies', async () => {
  const bundle = await readFile(join(gatewayBuildDir, 'main.js'), 'utf8');
  // esbuild leaves every package external (gateway-bundle.ts): each is a static import statement of the bundle.
  const specifiers = [...bundle.matchAll(/^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?"([^"]+)";$/gm)].map((match) => match[1]!);
  expect(specifiers).toContain('fastify');
  const packages = [...new Set(specifiers.map(packageOf).filter((name) => name !== undefined))];
  expect(packages.filter((name) => !(name in packageFile.dependencies))).toEqual([]);
});

const npmMissing = spawnSync('npm', ['--version'], { encoding: 'utf8' }).error !== undefined;
const SKIP_REASON = 'production start skipped: npm is not on PATH (it installs the copy with npm ci --omit=dev)';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(npmMissing)(npmMissing ? SKIP_REASON : 'npm run start:prod on a production install of the build', () => {
  let deployment = '';
  afterAll(async () => {
    if (deployment) await rm(deployment, { recursive: true, force: true });
  });

  /**
   * A deployment's shell: this node first on PATH, no node_modules/.bin of this checkout (its vite and tsc), and
   * none of this run's variables (NODE_ENV=test, DATABASE_URL, npm's npm_config_local_prefix naming this checkout,
   * which would make npm install here). Only the npm cache is kept, which the checkout's own `npm ci` filled.
   */
  const shellEnv: NodeJS.ProcessEnv = {
    PATH: [dirname(process.execPath), ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.endsWith(join('node_modules', '.bin')))].join(
      delimiter,
    ),
    HOME: process.env.HOME ?? tmpdir(),
    npm_config_update_notifier: 'false',
    ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
  };

  it('refuses to start before the build is there, installs without devDependencies, then serves the health check and a site page', async () => {
    deployment = await mkdtemp(join(tmpdir(), 'portal-deployment-'));
    await Promise.all(['package.json', 'package-lock.json'].map((file) => cp(join(REPO_ROOT, file), join(deployment, file))));

    const withoutBuild = await run('npm', ['run', 'start:prod'], { cwd: deployment, env: shellEnv });
    expect(withoutBuild.code).toBe(1);
    // One line of the script's own; npm's (`npm warn …`) are npm's.
    const scriptLines = withoutBuild.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm '));
    expect(scriptLines).toEqual(['start:prod: build/gateway/main.js or dist/index.html is missing: run npm run build first']);

    // The app as `npm run build` builds it (no NODE_ENV, no VITE_ variable of this run), straight into the copy,
    // while npm installs. --offline: every package is in the npm cache since the checkout's own `npm ci`.
    const { NODE_ENV: _mode, ...buildEnv } = process.env;
    const [install, appBuild] = await Promise.all([
      run('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: deployment, env: shellEnv }),
      run(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', join(deployment, 'dist'), '--emptyOutDir'],
        {
          cwd: REPO_ROOT,
          env: Object.fromEntries(Object.entries(buildEnv).filter(([name]) => !name.startsWith('VITE_'))),
        },
      ),
    ]);
    expect(install.code, `npm ci --omit=dev --offline failed:\n${install.stderr}`).toBe(0);
    expect(appBuild.code, `vite build failed:\n${appBuild.stderr}`).toBe(0);

    for (const name of ['vite', 'typescript', 'tsx', 'esbuild', 'vitest']) expect(existsSync(join(deployment, 'node_modules', name)), name).toBe(false);
    // Every devDependency is absent, but for the ones a production package needs too: npm keeps them as an optional
    // peer (devOptional) or as a dependency (not dev; @node-saml/node-saml depends on type packages that need @types/node).
    const neededInProduction = (name: string) => {
      const locked = lockFile.packages[`node_modules/${name}`];
      return locked?.devOptional === true || (locked !== undefined && locked.dev !== true);
    };
    const installedDevPackages = Object.keys(packageFile.devDependencies).filter(
      (name) => !neededInProduction(name) && existsSync(join(deployment, 'node_modules', name)),
    );
    expect(installedDevPackages).toEqual([]);

    await cp(gatewayBuildDir, join(deployment, 'build', 'gateway'), { recursive: true });
    // The bundle reads ../../fixtures/ (the common passwords list, the default FIXTURES_DIR; gateway-bundle.ts).
    await cp(join(REPO_ROOT, 'fixtures'), join(deployment, 'fixtures'), { recursive: true });
    // ADR 0018: production needs a deployment's own fixtures, with unionbank and rheinbank (SAML) at their own https identity providers.
    const deploymentFixtures = join(deployment, 'deployment-fixtures');
    await cp(join(REPO_ROOT, 'fixtures'), deploymentFixtures, { recursive: true });
    const unionbankFile = join(deploymentFixtures, 'sites', 'unionbank.json');
    await writeFile(
      unionbankFile,
      (await readFile(unionbankFile, 'utf8')).replace('"issuer_url": "http://127.0.0.1/test-idp"', '"issuer_url": "https://login.unionbank.example"'),
    );
    const rheinbankFile = join(deploymentFixtures, 'sites', 'rheinbank.json');
    await writeFile(
      rheinbankFile,
      (await readFile(rheinbankFile, 'utf8')).replace(
        '"saml_idp_metadata_url": "http://127.0.0.1/test-saml-idp/metadata"',
        '"saml_idp_metadata_url": "https://login.rheinbank.example/saml/metadata"',
      ),
    );

    const port = await freePort();
    // README "Production": every variable production mode requires, none of the development defaults.
    const productionEnv = {
      ...shellEnv,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(deployment, 'data'),
      FIXTURES_DIR: deploymentFixtures,
      SMTP_URL: `smtp://portal:smtp-password@127.0.0.1:${await freePort()}`,
      PREAUTH_CLIENT_SECRET: 'a-deployment-preauth-secret',
      PUBLIC_URL: 'https://rewards.example',
      TOKEN_SIGNING_KEY: '1a'.repeat(32),
      TOTP_ENCRYPTION_KEY: '2b'.repeat(32),
      CARD_FINGERPRINT_KEY: '3c'.repeat(32),
      // The bundled sites ask a captcha at registration; production needs hCaptcha's secret to check it.
      HCAPTCHA_SECRET: 'a-deployment-hcaptcha-secret',
    };
    const gateway = spawn('npm', ['run', 'start:prod'], { cwd: deployment, env: productionEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    gateway.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    gateway.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => gateway.once('close', (code) => resolve(code)));
    const baseUrl = `http://127.0.0.1:${port}`;
    let stoppedWith: number | null;
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (gateway.exitCode !== null) throw new Error(`npm run start:prod exited with ${gateway.exitCode} before it was healthy:\n${output}`);
        const health = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
        if (health?.ok) {
          expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
          break;
        }
        if (Date.now() > deadline) throw new Error(`npm run start:prod was not healthy within 60 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }

      // README "Set-up" names this page; the gateway answers it with the sign-in screen its server build rendered from
      // the copy's dist/ (ADR 0024: the server build needs nothing of node_modules), and the build's own script.
      const page = await fetch(`${baseUrl}/firstbank/en_us/account/login`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('id="root_username"');
      expect(html).toContain(`<script type="application/json" id="${SERVER_PAGE_DATA_ID}">`);
      // The server's page asks for it at low priority: it runs after the paint (ADR 0024).
      const entryScript = /<script type="module" fetchpriority="low" crossorigin src="(\/assets\/index-[^"]+\.js)"><\/script>/.exec(html)?.[1];
      expect(entryScript).toBeDefined();
      expect(await readFile(join(deployment, 'dist', 'index.html'), 'utf8')).toContain(`src="${entryScript ?? ''}"`);
      const script = await fetch(`${baseUrl}${entryScript}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      // npm hands SIGTERM to the gateway (the script `exec`s node), which stops cleanly within its grace period.
      if (gateway.exitCode === null) gateway.kill('SIGTERM');
      const stuck = setTimeout(() => gateway.kill('SIGKILL'), 20_000);
      stoppedWith = await exited;
      clearTimeout(stuck);
    }
    expect(stoppedWith, output).toBe(0);
    expect(output).toContain('"mode":"production"');
    expect(output).not.toContain('DEVELOPMENT MODE');
  }, 180_000);
});
