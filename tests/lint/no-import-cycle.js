import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * ESLint rule `house/no-import-cycle`: refuses an import of ours (a relative path, type-only imports included)
 * from which the importing file can be reached again. A circle makes the order modules run in depend on which
 * file is loaded first, and hides which of two files is the lower one (README "Architecture": arrows point one
 * way). Dynamic `import()` is lazy and left out.
 *
 * The graph is read from the files' text with one regexp per run (imports are one statement each in this
 * house's Prettier style), cached for the ESLint process; the file being linted is read from ESLint's own text.
 */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx', '/index.js'];

const importsByFile = new Map();

function resolveImport(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''));
  for (const extension of [...EXTENSIONS, ...(specifier.endsWith('.js') ? ['.js'] : [])]) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOfText(file, text) {
  const found = [];
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const target = resolveImport(file, match[1]);
    if (target !== null && /\.(ts|tsx|js|mjs)$/.test(target)) found.push(target);
  }
  return found;
}

function importsOf(file) {
  let found = importsByFile.get(file);
  if (found === undefined) {
    found = importsOfText(file, readFileSync(file, 'utf8'));
    importsByFile.set(file, found);
  }
  return found;
}

/** The shortest way from `start` back to `goal`, as files, or null. */
function pathBack(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === goal) {
        const path = [file];
        for (let step = cameFrom.get(file); step !== null; step = cameFrom.get(step)) path.unshift(step);
        return path;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuse an import that closes a circle of our own modules (README "Architecture").' },
    schema: [],
    messages: { cycle: 'Import cycle: {{circle}}. Move what both need into the lower file, or a new one both import.' },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const check = (node) => {
      if (typeof node.source?.value !== 'string' || !node.source.value.startsWith('.')) return;
      const target = resolveImport(file, node.source.value);
      if (target === null) return;
      const path = target === file ? [target] : pathBack(target, file);
      if (path === null) return;
      const circle = [file, target, ...path.slice(1), file].map((step) => relative(root, step)).join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { circle } });
    };
    return {
      Program() {
        // The linted text, not the file on disk, is this file's truth while it is linted (an editor's
        // unsaved change); the disk's again for the files linted after it.
        importsByFile.set(file, importsOfText(file, context.sourceCode.text));
      },
      'Program:exit'() {
        importsByFile.delete(file);
      },
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};
