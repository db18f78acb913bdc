import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..', '..');
const DIST = join(ROOT, 'apps', 'web', 'dist');

/** Static imports of a built chunk (`import"./x.js"`, `from"./x.js"`), not `import("./x.js")`. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.\/[^"']+\.js)["']/g)) {
    found.add(match[1]!);
  }
  return [...found];
}

/**
 * The web app's initial JavaScript: the entry script of index.html and everything it imports
 * statically (what loads before any screen's own code-split chunk), gzipped. Builds the app
 * first unless `build` is false and a build exists.
 */
export function initialJavaScript(build: boolean) {
  if (build || !existsSync(join(DIST, 'index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', '@atendi/web'], { cwd: ROOT, stdio: 'ignore' });
  }
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entries = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
  ].map((match) => match[1]!);
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(DIST, file), 'utf8');
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    for (const relative of staticImports(code)) queue.push(folder + relative.slice(2));
  }
  const files = [...seen].map((file) => {
    const bytes = readFileSync(join(DIST, file));
    return {
      file,
      kB: Math.round(bytes.length / 102.4) / 10,
      gzipKB: gzipSync(bytes).length / 1024,
    };
  });
  const gzipKB = Math.round(files.reduce((sum, file) => sum + file.gzipKB, 0) * 10) / 10;
  return {
    gzipKB,
    files: files.map((file) => ({ ...file, gzipKB: Math.round(file.gzipKB * 10) / 10 })),
  };
}
