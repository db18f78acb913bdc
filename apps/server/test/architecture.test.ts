import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IFlattenedRuleSet, type IViolation } from 'dependency-cruiser';
import { and, eq, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GlobalDb } from '../src/db/global';
import { contacts, plans, queues, settings, tickets, users } from '../src/db/schema';
import { TenantDb } from '../src/db/tenant';
import { startTestServer, type TestServer } from './harness';

const SERVER_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const GUARDED_DIRS = ['src/modules', 'src/channels'];

/** Module specifiers of static imports, re-exports, side-effect imports, import() and require(). */
function specifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]!));
}

const FORBIDDEN: { why: string; test: (specifier: string) => boolean }[] = [
  { why: 'pg', test: (s) => s === 'pg' || s.startsWith('pg/') },
  { why: 'drizzle-orm/node-postgres', test: (s) => s.startsWith('drizzle-orm/node-postgres') },
  { why: 'socket.io', test: (s) => s === 'socket.io' || s.startsWith('socket.io/') },
  { why: 'db/client', test: (s) => /(^|\/)db\/client(\.[cm]?[jt]s)?$/.test(s) },
];

/** What a file of modules/ or channels/ must not do: reach the raw database or socket.io. */
function violations(source: string): string[] {
  const found = specifiers(source).flatMap((specifier) =>
    FORBIDDEN.filter((rule) => rule.test(specifier)).map((rule) => `imports ${rule.why}`),
  );
  if (source.includes('unwrapHandle')) found.push('mentions unwrapHandle');
  return found;
}

const QUERY_BUILDING: { why: string; test: (specifier: string) => boolean }[] = [
  { why: 'drizzle-orm', test: (s) => s === 'drizzle-orm' || s.startsWith('drizzle-orm/') },
  { why: 'db/schema', test: (s) => /(^|\/)db\/schema(\/|\.[cm]?[jt]s$|$)/.test(s) },
];

/**
 * What a service (any module file but a repository, a module's conditions lent to other
 * statements (`*.sql.ts`) or a test) must not do: build queries.
 */
function serviceViolations(source: string): string[] {
  return specifiers(source).flatMap((specifier) =>
    QUERY_BUILDING.filter((rule) => rule.test(specifier)).map((rule) => `imports ${rule.why}`),
  );
}

const isService = (file: string) => !/\.(repository|sql|test)\.[cm]?[jt]sx?$/.test(file);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.[cm]?[jt]sx?$/.test(name) ? [path] : [];
  });
}

describe('modules and channels stay off the raw database and socket.io', () => {
  it('the scanner recognises every way of importing', () => {
    const cases: [string, string[]][] = [
      ["import pg from 'pg';", ['imports pg']],
      ["import type { Pool } from 'pg'", ['imports pg']],
      ["const pg = require('pg');", ['imports pg']],
      [
        "const m = await import('drizzle-orm/node-postgres');",
        ['imports drizzle-orm/node-postgres'],
      ],
      ["import { Server } from 'socket.io';", ['imports socket.io']],
      ["export { Server } from 'socket.io';", ['imports socket.io']],
      [
        "import {\n  type Db,\n  connectDatabase,\n} from '../../db/client';",
        ['imports db/client'],
      ],
      ["import '../../db/client.ts';", ['imports db/client']],
      ['const db = unwrapHandle(ctx.db);', ['mentions unwrapHandle']],
      ["import { tenantDb } from '../../db/tenant';", []],
      ["import { io } from 'socket.io-client';", []],
      ["import { pgTable } from 'drizzle-orm/pg-core';", []],
      ["import { client } from './http-client';", []],
    ];
    for (const [source, expected] of cases) expect(violations(source), source).toEqual(expected);
  });

  it('no file breaks the rule', () => {
    const files = GUARDED_DIRS.flatMap((dir) => sourceFiles(join(SERVER_ROOT, dir)));
    expect(files.some((file) => file.endsWith('users.service.ts'))).toBe(true);
    const broken = files.flatMap((file) =>
      violations(readFileSync(file, 'utf8')).map((v) => `${relative(SERVER_ROOT, file)}: ${v}`),
    );
    expect(broken).toEqual([]);
  });
});

/** The one client allowed to make HTTP requests (platform/outbound.ts). */
const OUTBOUND_CLIENT = join('src', 'platform', 'outbound.ts');
const HTTP_MODULES = new Set(['http', 'https', 'node:http', 'node:https']);

/** Code without its comments (`// ...` after a space or at a line's start, and block comments). */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[ \t])\/\/.*$/gm, '$1');

/** The ways a file may make an HTTP request without the outbound client. */
function outboundViolations(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  if (/(^|[^\w.$])fetch\s*\(/.test(code) || /\bglobalThis\s*\.\s*fetch\b/.test(code)) {
    found.push('calls fetch');
  }
  if (specifiers(code).some((s) => s === 'undici' || s.startsWith('undici/'))) {
    found.push('imports undici');
  }
  const imports = /\b(import|export)\s+(type\s+)?([^'"`;]*?)\s*\bfrom\s*['"]([^'"]+)['"]/g;
  for (const [, , typeOnly, clause = '', specifier = ''] of code.matchAll(imports)) {
    if (!HTTP_MODULES.has(specifier) || typeOnly) continue;
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    const names = named.split(',').map((part) => part.trim().replace(/^type\s+/, ''));
    if (names.some((name) => /^(request|get)\b/.test(name) && !named.includes(`type ${name}`))) {
      found.push(`imports request from ${specifier}`);
    }
    const whole = /^(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)/.exec(clause.trim())?.[1];
    if (whole && new RegExp(`\\b${whole}\\s*\\.\\s*(request|get)\\s*\\(`).test(code)) {
      found.push(`calls ${specifier}.request`);
    }
  }
  const required = /\b([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"](node:)?https?['"]\s*\)/g;
  for (const [, name] of code.matchAll(required)) {
    if (new RegExp(`\\b${name}\\s*\\.\\s*(request|get)\\s*\\(`).test(code)) {
      found.push('calls http(s).request');
    }
  }
  return found;
}

/** Every file of `root`'s src/ but tests and the outbound client, with what it does wrong. */
function outboundOffenders(root: string): string[] {
  return sourceFiles(join(root, 'src'))
    .filter((file) => !/\.test\.[cm]?[jt]sx?$/.test(file))
    .filter((file) => relative(root, file) !== OUTBOUND_CLIENT)
    .flatMap((file) =>
      outboundViolations(readFileSync(file, 'utf8')).map((v) => `${relative(root, file)}: ${v}`),
    );
}

describe('one door out: HTTP requests only through platform/outbound.ts', () => {
  it('the scanner recognises every way of making a request', () => {
    const cases: [string, string[]][] = [
      ['const answer = await fetch(url);', ['calls fetch']],
      ['await globalThis.fetch(url)', ['calls fetch']],
      ["import { request } from 'undici';", ['imports undici']],
      ["const { Agent } = require('undici');", ['imports undici']],
      [
        "import https from 'node:https';\nhttps.request(url, () => {});",
        ['calls node:https.request'],
      ],
      ["import * as http from 'http';\nhttp.get(url);", ['calls http.request']],
      ["import { request as send } from 'node:http';", ['imports request from node:http']],
      ["const http = require('node:http');\nhttp.request(options);", ['calls http(s).request']],
      ["import { createServer } from 'node:http';\ncreateServer(handler);", []],
      ["import type { IncomingMessage } from 'node:http';", []],
      ['const sockets = await io.fetchSockets();', []],
      ['// plain fetch (which follows redirects) is what we left', []],
      ["const url = 'https://example.com/x'; // not fetch(url)", []],
      ['await outbound.request(url, { method: "POST" });', []],
    ];
    for (const [source, expected] of cases) {
      expect(outboundViolations(source), source).toEqual(expected);
    }
  });

  it('no file of the server but the outbound client makes a request', () => {
    expect(outboundOffenders(SERVER_ROOT)).toEqual([]);
    // The client itself is what the scan would catch: it is exempt by name, nothing else is.
    expect(outboundViolations(readFileSync(join(SERVER_ROOT, OUTBOUND_CLIENT), 'utf8'))).toEqual([
      'imports undici',
    ]);
  });

  it('catches a direct fetch planted in a module', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atendi-outbound-'));
    try {
      mkdirSync(join(dir, 'src', 'channels', 'cloud-api'), { recursive: true });
      mkdirSync(join(dir, 'src', 'platform'), { recursive: true });
      writeFileSync(
        join(dir, 'src', 'channels', 'cloud-api', 'cloud-api.graph.ts'),
        "export const media = (url: string) =>\n  fetch(url, { redirect: 'follow' });\n",
      );
      writeFileSync(
        join(dir, 'src', 'platform', 'outbound.ts'),
        "import { Agent } from 'undici';\n",
      );
      writeFileSync(join(dir, 'src', 'channels', 'cloud-api', 'cloud-api.test.ts'), 'fetch(x);\n');
      expect(outboundOffenders(dir)).toEqual([
        'src/channels/cloud-api/cloud-api.graph.ts: calls fetch',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`); undefined for paths. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const devDependencies = (packageJson: string) =>
  Object.keys(
    (JSON.parse(readFileSync(packageJson, 'utf8')) as { devDependencies?: object })
      .devDependencies ?? {},
  );

describe('what ships uses no dev dependency', () => {
  it('no file of src/ but its tests imports a dev dependency (test fakes live in test/)', () => {
    const dev = new Set([
      ...devDependencies(join(SERVER_ROOT, 'package.json')),
      ...devDependencies(join(SERVER_ROOT, '..', '..', 'package.json')),
    ]);
    expect(dev.has('@hapi/boom')).toBe(true);
    const shipped = sourceFiles(join(SERVER_ROOT, 'src')).filter(
      (file) => !/\.test\.[cm]?[jt]sx?$/.test(file),
    );
    expect(shipped.some((file) => file.endsWith('app.ts'))).toBe(true);
    const broken = shipped.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .map(packageOf)
        .filter((name): name is string => name !== undefined && dev.has(name))
        .map((name) => `${relative(SERVER_ROOT, file)}: imports ${name}`),
    );
    expect(broken).toEqual([]);
  });
});

describe('services hold the rules and leave the queries to repositories', () => {
  it('the scanner recognises drizzle and the schema however they are imported', () => {
    const cases: [string, string[]][] = [
      ["import { and, eq } from 'drizzle-orm';", ['imports drizzle-orm']],
      ["import { alias } from 'drizzle-orm/pg-core';", ['imports drizzle-orm']],
      ["import type { SQL } from 'drizzle-orm';", ['imports drizzle-orm']],
      ["import { tickets } from '../../db/schema';", ['imports db/schema']],
      ["import type { plans } from '../../db/schema';", ['imports db/schema']],
      ["import { users } from '../../db/schema/users';", ['imports db/schema']],
      ["export { tags } from '../../db/schema/index.ts';", ['imports db/schema']],
      ["const { messages } = await import('../../db/schema');", ['imports db/schema']],
      ["import { tenantDb } from '../../db/tenant';", []],
      ["import { isUniqueViolation } from '../../db/errors';", []],
      ["import { ticketById } from '../tickets/tickets.repository';", []],
      ["import { schemaOf } from './db-schemas';", []],
    ];
    for (const [source, expected] of cases) {
      expect(serviceViolations(source), source).toEqual(expected);
    }
  });

  it('tells services from repositories and tests', () => {
    expect(isService('modules/tags/tags.service.ts')).toBe(true);
    expect(isService('modules/messages/messages.inbound.ts')).toBe(true);
    expect(isService('modules/tickets/tickets.access.ts')).toBe(true);
    expect(isService('modules/tags/tags.repository.ts')).toBe(false);
    expect(isService('modules/tickets/tickets.sql.ts')).toBe(false);
    expect(isService('modules/tags/tags.test.ts')).toBe(false);
  });

  it('a service that queries is caught, the same code in a repository is not', () => {
    const planted = [
      "import { eq } from 'drizzle-orm';",
      "import { tags } from '../../db/schema';",
      "import { tenantDb } from '../../db/tenant';",
      'export const tagById = (ctx, id) => tenantDb(ctx).selectFrom(tags, eq(tags.id, id));',
    ].join('\n');
    const scan = (file: string) => (isService(file) ? serviceViolations(planted) : []);
    expect(scan('modules/tags/tags.service.ts')).toEqual([
      'imports drizzle-orm',
      'imports db/schema',
    ]);
    expect(scan('modules/tags/tags.repository.ts')).toEqual([]);
  });

  it('no service builds a query', () => {
    const files = sourceFiles(join(SERVER_ROOT, 'src/modules')).filter((file) => isService(file));
    expect(files.some((file) => file.endsWith('tickets.service.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('messages.inbound.ts'))).toBe(true);
    const broken = files.flatMap((file) =>
      serviceViolations(readFileSync(file, 'utf8')).map(
        (v) => `${relative(SERVER_ROOT, file)}: ${v}`,
      ),
    );
    expect(broken).toEqual([]);
  });
});

/**
 * The server's layers, bottom up: db, platform, channels, modules, and app.ts, which builds them
 * all (only main.ts and server.ts import it). An arrow may only run down, and no import circle
 * may exist anywhere, type-only imports included. Paths are relative to the server's folder.
 */
const LAYERS: IFlattenedRuleSet = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'only-entry-points-import-app',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main|server)\\.ts$' },
      to: { path: '^src/app\\.ts$' },
    },
    {
      name: 'platform-not-up',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|channels)/' },
    },
    {
      name: 'channels-not-up',
      severity: 'error',
      from: { path: '^src/channels/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'db-not-up',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(platform|modules|channels)/' },
    },
    {
      // What only tests use (fakes, helpers) lives under test/, not among what ships.
      name: 'ships-only-what-runs',
      severity: 'error',
      from: { path: '^src/main\\.ts$' },
      to: { path: '^src/', pathNot: '^src/main\\.ts$', reachable: false },
    },
    {
      // A module's repository is its own: other modules use the module's face (its service,
      // tickets.lifecycle.ts, settings.values.ts, plans.limits.ts, ...).
      name: 'repository-stays-in-its-module',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/[^/]+\\.repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      // The conditions a module lends to other statements (`*.sql.ts`) are for repositories.
      name: 'conditions-only-in-statements',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.(repository|sql)\\.ts$' },
      to: { path: '^src/modules/[^/]+/[^/]+\\.sql\\.ts$' },
    },
    {
      name: 'shared-stays-shared',
      severity: 'error',
      from: { path: '(^|/)packages/shared/' },
      to: { path: '(^|/)apps/' },
    },
  ],
};

/** dependency-cruiser's reading of the files under `baseDir`, checked against LAYERS. */
async function cruiseLayers(baseDir: string, roots: string[]) {
  const result = await cruise(roots, {
    baseDir,
    validate: true,
    ruleSet: LAYERS,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  expect(result.output.summary.totalCruised).toBeGreaterThan(1);
  return result.output;
}

/** Every rule broken under `baseDir`, one line each: `rule: from -> to` (or the circle). */
async function layerViolations(baseDir: string, roots: string[]): Promise<string[]> {
  const output = await cruiseLayers(baseDir, roots);
  return output.summary.violations.map((violation: IViolation) =>
    violation.cycle?.length
      ? `${violation.rule.name}: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' -> ')}`
      : `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
  );
}

describe('the layers of the server', () => {
  it('has no import circle and no arrow running back up (dependency-cruiser)', async () => {
    expect(await layerViolations(SERVER_ROOT, ['src', '../../packages/shared/src'])).toEqual([]);
  });

  it('reports a planted circle and planted arrows running up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atendi-layers-'));
    try {
      const write = (path: string, source: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), source);
      };
      write('src/app.ts', "import { a } from './modules/a/a.service';\nexport const app = a;\n");
      // A type-only circle, as a module importing its types from app.ts made.
      write(
        'src/modules/a/a.service.ts',
        "import type { App } from '../../app';\nimport { b } from './b';\nexport type A = App;\nexport const a = b;\n",
      );
      write('src/modules/a/b.ts', 'export const b = 1;\n');
      write('src/platform/leases.ts', "import { b } from '../modules/a/b';\nexport const l = b;\n");
      write('src/db/client.ts', "import { l } from '../platform/leases';\nexport const c = l;\n");
      write('src/main.ts', "import { app } from './app';\nexport const m = app;\n");
      const found = await layerViolations(dir, ['src']);
      expect(found).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^no-circular: src\/app\.ts -> src\/modules\/a\/a\.service\.ts -> src\/app\.ts$|^no-circular: src\/modules\/a\/a\.service\.ts -> src\/app\.ts -> src\/modules\/a\/a\.service\.ts$/,
          ),
          'only-entry-points-import-app: src/modules/a/a.service.ts -> src/app.ts',
          'platform-not-up: src/platform/leases.ts -> src/modules/a/b.ts',
          'db-not-up: src/db/client.ts -> src/platform/leases.ts',
          // Nothing that runs imports it: only tests would.
          'ships-only-what-runs: src/db/client.ts -> src/db/client.ts',
        ]),
      );
      // main.ts may import app.ts.
      expect(found.filter((line) => line.includes(': src/main.ts ->'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a module importing another module's repository, and its conditions outside a repository", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atendi-repositories-'));
    try {
      const write = (path: string, source: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), source);
      };
      write('src/modules/a/a.repository.ts', 'export const rowOfA = 1;\n');
      write('src/modules/a/a.sql.ts', "export const RULE_OF_A = 'true';\n");
      // Its own module's files may use both.
      write(
        'src/modules/a/a.service.ts',
        "import { rowOfA } from './a.repository';\nexport const a = rowOfA;\n",
      );
      // Another module reaches the repository straight, and a service takes a condition.
      write(
        'src/modules/b/b.service.ts',
        "import { rowOfA } from '../a/a.repository';\nimport { RULE_OF_A } from '../a/a.sql';\nimport { a } from '../a/a.service';\nexport const b = [rowOfA, RULE_OF_A, a];\n",
      );
      // A repository of another module may compose the condition into its own statement.
      write(
        'src/modules/c/c.repository.ts',
        "import { RULE_OF_A } from '../a/a.sql';\nexport const rowOfC = RULE_OF_A;\n",
      );
      write(
        'src/main.ts',
        "import { b } from './modules/b/b.service';\nimport { rowOfC } from './modules/c/c.repository';\nexport const m = [b, rowOfC];\n",
      );
      const found = await layerViolations(dir, ['src']);
      expect(found.filter((line) => !line.startsWith('ships-only-what-runs')).sort()).toEqual([
        'conditions-only-in-statements: src/modules/b/b.service.ts -> src/modules/a/a.sql.ts',
        'repository-stays-in-its-module: src/modules/b/b.service.ts -> src/modules/a/a.repository.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the tickets repository imported only inside tickets (dependency-cruiser)', async () => {
    const output = await cruiseLayers(SERVER_ROOT, ['src']);
    const importers = output.modules
      .filter((module) =>
        module.dependencies.some(
          (dependency) => dependency.resolved === 'src/modules/tickets/tickets.repository.ts',
        ),
      )
      .map((module) => module.source)
      .sort();
    // Not vacuous: the tickets module itself is read through it.
    expect(importers).toContain('src/modules/tickets/tickets.lifecycle.ts');
    expect(importers.filter((file) => !file.startsWith('src/modules/tickets/'))).toEqual([]);
  });
});

describe('TenantDb cannot be used without the company scope', () => {
  let t: TestServer;
  let a: { companyId: number; userId: number; db: TenantDb };
  let b: { companyId: number; userId: number; db: TenantDb };

  const usersOf = async (companyId: number) => {
    const { rows } = await t.database.db.execute<{ id: number; name: string }>(
      sql`select id, name from users where company_id = ${companyId} order by id`,
    );
    return rows;
  };

  beforeAll(async () => {
    t = await startTestServer();
    const make = async () => {
      const { company, admin } = await t.make.company();
      await t.make.user(company.id, { name: 'Second' });
      return {
        companyId: company.id,
        userId: admin.id,
        db: new TenantDb(t.database.db, company.id),
      };
    };
    a = await make();
    b = await make();
  });
  afterAll(() => t.stop());

  // Conditions a careless or hostile caller could pass, each of which would match company B.
  const escapes = () => [
    undefined,
    eq(users.companyId, b.companyId),
    eq(users.id, b.userId),
    sql`true`,
    sql`true or true`,
    sql`${users.companyId} = ${b.companyId} or 1 = 1`,
    or(eq(users.id, b.userId), sql`1 = 1`),
  ];

  it('reads only its company, whatever the condition', async () => {
    for (const [index, where] of escapes().entries()) {
      const label = `condition ${index}`;
      const rows = await a.db.selectFrom(users, where);
      expect(
        rows.every((row) => row.companyId === a.companyId),
        label,
      ).toBe(true);
      const picked = await a.db.select({ companyId: users.companyId }).from(users, where);
      expect(
        picked.every((row) => row.companyId === a.companyId),
        label,
      ).toBe(true);
      expect(await a.db.count(users, where), label).toBeLessThanOrEqual(2);
    }
    expect(await a.db.selectFrom(users)).toHaveLength(2);
    expect(await a.db.selectFrom(users, eq(users.id, b.userId))).toEqual([]);
    expect(await a.db.count(users)).toBe(2);
  });

  it("cannot update another company's rows", async () => {
    const before = await usersOf(b.companyId);
    for (const where of escapes().filter((w) => w !== undefined)) {
      await a.db.update(users, { name: 'Overwritten' }, where);
    }
    expect(await usersOf(b.companyId)).toEqual(before);
    expect((await usersOf(a.companyId)).every((row) => row.name === 'Overwritten')).toBe(true);
    const touched = await a.db
      .update(users, { name: 'Nope' }, eq(users.id, b.userId))
      .returning({ id: users.id });
    expect(touched).toEqual([]);
  });

  it("cannot delete another company's rows", async () => {
    const victim = await t.make.company();
    const c = new TenantDb(t.database.db, victim.company.id);
    await t.make.queue(victim.company.id);
    const before = await usersOf(b.companyId);
    for (const where of escapes().filter((w) => w !== undefined)) {
      await c.delete(queues, sql`true or true`);
      await c.delete(users, where);
    }
    expect(await usersOf(b.companyId)).toEqual(before);
    expect(await b.db.count(settings)).toBeGreaterThan(0);
    expect(await usersOf(victim.company.id)).toEqual([]);
  });

  it('stamps its company on inserts even when the caller passes another', async () => {
    const [row] = await a.db
      .insert(queues, { name: 'Stamped', color: '#5a5a5a', companyId: b.companyId } as never)
      .returning();
    expect(row!.companyId).toBe(a.companyId);
    const rows = await a.db
      .insert(queues, [
        { name: 'Stamped 2', color: '#5b5b5b', companyId: b.companyId },
        { name: 'Stamped 3', color: '#5c5c5c' },
      ] as never)
      .returning();
    expect(rows.map((r) => r.companyId)).toEqual([a.companyId, a.companyId]);
    expect(await b.db.count(queues)).toBe(0);
  });

  it('throws when an update tries to move a row to another company', async () => {
    const before = await usersOf(a.companyId);
    expect(() =>
      a.db.update(users, { companyId: b.companyId } as never, eq(users.id, a.userId)),
    ).toThrow(/another company/);
    expect(() =>
      a.db.update(users, { name: 'x', companyId: undefined } as never, eq(users.id, a.userId)),
    ).toThrow(/another company/);
    expect(await usersOf(a.companyId)).toEqual(before);
  });

  it("cannot update another company's row through a conflict on an index that spans companies", async () => {
    const [contactB] = await b.db
      .insert(contacts, { name: 'B', number: '5511900000001' })
      .returning();
    const [ticketB] = await b.db
      .insert(tickets, { contactId: contactB!.id, lastMessage: 'untouched' })
      .returning();
    const [contactA] = await a.db
      .insert(contacts, { name: 'A', number: '5511900000002' })
      .returning();
    // Company A inserts a ticket reusing B's uuid and asks to update on conflict.
    const answered = await a.db
      .insert(tickets, { contactId: contactA!.id, uuid: ticketB!.uuid })
      .onConflictDoUpdate({ target: tickets.uuid, set: { lastMessage: 'hijacked' } })
      .returning();
    expect(answered).toEqual([]);
    const [after] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketB!.id));
    expect(after!.lastMessage).toBe('untouched');
    expect(() =>
      a.db.insert(contacts, { name: 'A', number: '5511900000002' }).onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        set: { companyId: b.companyId } as never,
      }),
    ).toThrow(/another company/);
  });

  it('keeps the scope inside a transaction', async () => {
    const seen = await a.db.transaction(async (tx) => {
      await tx.update(users, { name: 'In transaction' }, sql`true or true`);
      return tx.selectFrom(users, sql`true or true`);
    });
    expect(seen.every((row) => row.companyId === a.companyId)).toBe(true);
    expect((await usersOf(b.companyId)).some((row) => row.name === 'In transaction')).toBe(false);
  });

  it('needs a real company id', () => {
    for (const id of [0, -1, 1.5, Number.NaN, undefined as unknown as number]) {
      expect(() => new TenantDb(t.database.db, id)).toThrow();
    }
  });

  it('refuses at compile time what it cannot refuse at run time (checked by tsc)', () => {
    expect(typeLevelChecks).toBeTypeOf('function');
  });
});

/**
 * Never called: `npx tsc -p apps/server` fails if any line marked @ts-expect-error compiles,
 * that is, if the types start accepting a company id or a second where.
 */
function typeLevelChecks(db: TenantDb, global: GlobalDb) {
  // @ts-expect-error companyId is not accepted in insert values
  db.insert(queues, { name: 'n', color: '#000', companyId: 2 });
  db.insert(queues, [
    { name: 'n', color: '#0' },
    // @ts-expect-error nor in any row of a batch
    { name: 'm', color: '#1', companyId: 2 },
  ]);
  // @ts-expect-error nor in an update's set
  db.update(users, { companyId: 2 }, eq(users.id, 1));
  // @ts-expect-error the company filter is already the where: a second one cannot replace it
  db.selectFrom(users).where(eq(users.companyId, 2));
  // @ts-expect-error the same for chosen fields
  db.select({ id: users.id }).from(users).where(sql`true`);
  // @ts-expect-error tenant tables are not reachable through the platform handle
  global.selectFrom(users);
  // Allowed: the condition goes in as an argument and is combined with the company filter.
  db.selectFrom(users, and(eq(users.profile, 'admin')))
    .orderBy(users.id)
    .limit(1);
  global.selectFrom(plans);
}
