import { readdirSync } from 'node:fs';
import { MEDIA_MAX_BYTES, MEDIA_MAX_FILES, PERMISSIONS, type PermissionName } from '@atendi/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import { startTestServer, type TestServer } from '../harness';
import { form } from '../inbox';
import { pathFor, seedWorld, snapshot, type World } from './world';

/**
 * The bad-input sweep: every registered route with a params, querystring or body schema gets
 * input generated from that schema (its JSON Schema, walked field by field). Whatever the
 * route's own schema refuses is answered 4xx with an `ERR_` code and changes nothing: not
 * company A's rows, not the global tables. Whatever the schema accepts (SQL-looking text in a
 * free-text field, say) may succeed, but is never answered 5xx. A key the schema does not know
 * is dropped (the spec's clients send fields of their own): the input the route's handler gets
 * is exactly the one without it, and that case too is never answered 5xx. Every route that
 * takes a body also gets malformed JSON, other content types and a body over its limit; the
 * routes that take multipart forms get a file over the upload limit.
 *
 * FUZZ_RUNS sets the generated cases per route and location; the deterministic ones (every
 * field's boundaries and wrong types, missing and unknown fields, a share of the hostile texts
 * and a huge text) always run. FUZZ_SEED replays a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/**
 * Accepted inputs kept per route, location and kind (fixed or generated) for the no-5xx phase,
 * which runs after all the others.
 */
const ACCEPTED_PER_KIND = 6;
/** Valid inputs with an unknown key sent per route and location (each is checked on its schema). */
const EXTRA_KEYS_SENT = 2;
/** Routes whose body limit is not the server's 1 MiB. */
const BODY_LIMITS: Record<string, number> = {
  'POST /simulator/connections/:id/phones/:phone/messages': 30 * 1024 * 1024,
  'POST /webhooks/cloud-api/:connectionId': 5 * 1024 * 1024,
};
const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The routes that take multipart forms, and their file field; a new one must be added here. */
const MULTIPART_ROUTES: Record<string, string> = {
  'POST /messages/:ticketId': 'medias',
  'POST /contacts/import': 'file',
  'POST /quick-messages/:id/media-upload': 'file',
  'POST /schedules/:id/media-upload': 'file',
  // The original client's schedule form: the schedule as JSON in `scheduleData`, its image.
  'POST /schedules': 'file',
  'PUT /schedules/:id': 'file',
  'POST /api/messages/send': 'medias',
  'POST /contact-lists/:id/upload': 'file',
  'POST /announcements/:id/media-upload': 'file',
  'POST /campaigns/:id/media-upload': 'file',
  'POST /files/uploadList/:fileId': 'files',
};
/** The type a multipart route's file is sent as, when it takes no PDF. */
const UPLOAD_TYPES: Record<string, string> = {
  'POST /contacts/import': 'text/csv',
  'POST /schedules/:id/media-upload': 'image/png',
  'POST /schedules': 'image/png',
  'PUT /schedules/:id': 'image/png',
  'POST /contact-lists/:id/upload': 'text/csv',
  'POST /announcements/:id/media-upload': 'image/png',
};

let t: TestServer;
let world: World;

beforeAll(async () => {
  t = await startTestServer({}, undefined, {
    // No route here may reach the real WhatsApp Web: a socket that cannot be made.
    channels: {
      baileys: {
        createSocket: () => {
          throw new Error('no WhatsApp Web in the bad-input sweep');
        },
        retry: { maxRetries: 0 },
      },
    },
  });
  world = await seedWorld(t);
}, 120_000);
afterAll(() => t?.stop());

// --- JSON Schema of a zod schema --------------------------------------------------------------

/** The part of JSON Schema that z.toJSONSchema writes for the route schemas. */
interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Node[];
  oneOf?: Node[];
  allOf?: Node[];
  $ref?: string;
  $defs?: Record<string, Node>;
}

type Location = 'params' | 'querystring' | 'body';
const LOCATIONS: Location[] = ['params', 'querystring', 'body'];

const zodOf = (route: CatalogRoute, location: Location): z.ZodType | undefined => {
  const schema = (route.schema as Record<string, unknown> | undefined)?.[location];
  return schema && typeof (schema as z.ZodType).safeParse === 'function'
    ? (schema as z.ZodType)
    : undefined;
};

/** The input side of a schema: what a client sends, before coercion and transforms. */
function jsonSchemaOf(schema: z.ZodType): Node {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node;
}

function resolver(root: Node) {
  return (node: Node): Node => {
    let current = node;
    for (let hops = 0; current.$ref && hops < 10; hops++) {
      const name = current.$ref.split('/').pop() ?? '';
      current = root.$defs?.[name] ?? {};
    }
    return current;
  };
}

const branches = (node: Node): Node[] | undefined => node.anyOf ?? node.oneOf;
const typesOf = (node: Node): string[] =>
  node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];

// --- values -----------------------------------------------------------------------------------

const MB = 1_000_000;
/** About a megabyte each, under the body limit once wrapped in JSON. */
const HUGE = ['a'.repeat(MB), '😀'.repeat(MB / 4 - 1000), "'".repeat(MB / 2)];
/** In a URL: far past what any HTTP server takes in a request line (16 KiB in Node). */
const HUGE_IN_URL = ['a'.repeat(100_000), '😀'.repeat(10_000), "'".repeat(50_000)];

/** SQL-looking, script-looking and unicode-edge text, and text that looks like other types. */
const HOSTILE: string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(10) --',
  "%' OR '%'='",
  "' UNION SELECT password_hash, email FROM users --",
  '$1',
  '\\',
  "\\'; --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(document.cookie)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant as is
  '${process.exit(1)}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '\uD800',
  '\uDFFF',
  'lone \uD83D surrogate',
  '\u0000',
  'nul\u0000inside',
  '\u202Egnp.exe',
  '\u200F\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627',
  '😀',
  '👩‍👩‍👧‍👦',
  '﷽',
  'e\u0301'.repeat(40),
  '\uFEFF',
  'line\u2028separator',
  '\r\n\t',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '0',
  '-1',
  '1e400',
  '0x1F',
  ' 7 ',
  '9'.repeat(40),
  '',
  ' ',
];

const nested = (depth: number, make: (inner: unknown) => unknown): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = make(value);
  return value;
};

/** Values of every JSON type: scalars where objects go, arrays and objects where scalars go. */
const TYPE_CONFUSION: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 53) - 2,
  1e308,
  '',
  'text',
  [],
  [null],
  ['a', 1],
  {},
  { a: 1 },
  { $ne: null },
  nested(200, (inner) => [inner]),
  nested(200, (inner) => ({ a: inner })),
];

const HOSTILE_PER_LOCATION = 6;

/** Lone surrogates (no JSON column takes them), NUL (no text column does), RTL, emoji. */
const UNSTORABLE = ['\uD800', 'lone \uDC00 low', 'nul\u0000inside', '\u202Eevil\u202C 👩‍👩‍👧‍👦'];

/** Keys no schema knows, some of which a careless handler would act on. */
const EXTRA_KEYS = ['isSuper', 'super', 'passwordHash', 'id ', '$where', 'constructor', 'x'];

/** Deterministic values that break a node: boundaries, wrong types, near-misses of enums. */
function boundaryValues(node: Node, resolve: (node: Node) => Node): unknown[] {
  const values: unknown[] = [];
  const alternatives = branches(node);
  if (alternatives) {
    for (const branch of alternatives) values.push(...boundaryValues(resolve(branch), resolve));
    return values;
  }
  if (node.enum || node.const !== undefined) {
    const option = (node.enum ?? [node.const])[0];
    if (typeof option === 'string') {
      values.push(option.toUpperCase() === option ? option.toLowerCase() : option.toUpperCase());
      values.push(`${option} `, `${option}\u0000`);
    } else if (typeof option === 'number') {
      values.push(option + 1, String(option));
    }
    values.push('not-an-option', ['x']);
    return values;
  }
  for (const type of typesOf(node)) {
    if (type === 'string') {
      if (node.minLength && node.minLength > 0) values.push('a'.repeat(node.minLength - 1));
      if (node.maxLength !== undefined && node.maxLength < 10 * MB) {
        values.push('a'.repeat(node.maxLength + 1));
      }
      values.push(12345, ['a']);
    } else if (type === 'integer' || type === 'number') {
      const low =
        node.exclusiveMinimum ?? (node.minimum === undefined ? undefined : node.minimum - 1);
      const high =
        node.exclusiveMaximum ?? (node.maximum === undefined ? undefined : node.maximum + 1);
      if (low !== undefined && Number.isSafeInteger(low)) values.push(low);
      if (high !== undefined && Number.isSafeInteger(high)) values.push(high);
      if (type === 'integer') values.push(1.5);
      values.push('abc', { n: 1 });
    } else if (type === 'boolean') {
      values.push('yes', [true]);
    } else if (type === 'array') {
      values.push('not-a-list', { 0: 1 });
      if (node.maxItems !== undefined && node.maxItems <= 1000) {
        values.push(Array.from({ length: node.maxItems + 1 }, () => sampleOf(node.items ?? {})));
      }
    } else if (type === 'object') {
      values.push('not-an-object', []);
    }
  }
  return values;
}

// A valid-looking value of a node (its seeds fixed: a deterministic base for the cases).
const SAFE_CHARS = 'abcdefghijklmnopqrstuvwxyzABC0123456789-_çãéñ';

function validString(node: Node, key: string): fc.Arbitrary<string> {
  if (node.format === 'email' || /email/i.test(key)) return fc.emailAddress();
  // Phone numbers: refined to a count of digits that JSON Schema cannot say.
  if (/phone|number/i.test(key) && new RegExp(node.pattern ?? '').test('5511999990000')) {
    return fc.stringMatching(/^[1-9]\d{9,12}$/);
  }
  if (node.pattern) {
    try {
      return fc.stringMatching(new RegExp(node.pattern));
    } catch {
      // A pattern fast-check cannot generate from: plain text, which the schema may refuse.
    }
  }
  const min = node.minLength ?? 0;
  const max = Math.min(node.maxLength ?? min + 20, min + 20);
  return fc
    .string({ unit: fc.constantFrom(...SAFE_CHARS), minLength: Math.max(min, 1), maxLength: max })
    .map((text) => (text.length < min ? text.padEnd(min, 'x') : text));
}

function validNumber(node: Node, integer: boolean): fc.Arbitrary<number> {
  const low =
    node.exclusiveMinimum !== undefined
      ? node.exclusiveMinimum + (integer ? 1 : 0.001)
      : (node.minimum ?? -1000);
  const high =
    node.exclusiveMaximum !== undefined
      ? node.exclusiveMaximum - (integer ? 1 : 0.001)
      : (node.maximum ?? low + 1000);
  // Small numbers near the lower bound (or 1): ids, pages and limits that a client sends.
  const from = Math.max(low, Math.min(1, high));
  const to = Math.min(high, from + 1000);
  return integer
    ? fc.integer({ min: Math.ceil(from), max: Math.floor(to) })
    : fc.double({ min: from, max: to, noNaN: true, noDefaultInfinity: true });
}

/** A valid-looking value; `full`: every optional field present and every list non-empty. */
function validValue(
  node: Node,
  resolve: (node: Node) => Node,
  key = '',
  full = false,
): fc.Arbitrary<unknown> {
  const current = resolve(node);
  if (current.const !== undefined) return fc.constant(current.const);
  if (current.enum) return fc.constantFrom(...current.enum);
  const alternatives = branches(current);
  if (alternatives) {
    // Full: the richest branch (an object or a list rather than null).
    const rich = alternatives.filter((b) => !typesOf(resolve(b)).includes('null'));
    const chosen = full && rich.length ? rich : alternatives;
    return fc.oneof(...chosen.map((b) => validValue(b, resolve, key, full)));
  }
  if (current.allOf?.[0]) return validValue(current.allOf[0], resolve, key, full);
  const types = typesOf(current);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 1 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return validString(current, key);
        case 'integer':
          return validNumber(current, true);
        case 'number':
          return validNumber(current, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const minLength = Math.max(
            current.minItems ?? 0,
            full ? Math.min(1, current.maxItems ?? 1) : 0,
          );
          return fc.array(validValue(current.items ?? {}, resolve, key, full), {
            minLength,
            maxLength: Math.max(minLength, Math.min(current.maxItems ?? 3, 3)),
          });
        }
        case 'object': {
          const properties = Object.entries(current.properties ?? {});
          return fc.record(
            Object.fromEntries(
              properties.map(([name, child]) => [name, validValue(child, resolve, name, full)]),
            ),
            full ? {} : { requiredKeys: current.required ?? [] },
          );
        }
        default:
          return fc.jsonValue({ maxDepth: 1 });
      }
    }),
  );
}

const sampleOf = (node: Node): unknown =>
  fc.sample(
    validValue(node, (n) => n),
    { numRuns: 1, seed: 7 },
  )[0];

// --- paths into a value -----------------------------------------------------------------------

type Path = (string | number)[];
interface Leaf {
  path: Path;
  node: Node;
}
interface ObjectAt {
  path: Path;
  node: Node;
}

/** Every field of a schema (through unions and the first item of lists), to a bounded depth. */
function walk(root: Node, resolve: (node: Node) => Node) {
  const leaves: Leaf[] = [];
  const objects: ObjectAt[] = [];
  const visit = (node: Node, path: Path, depth: number) => {
    const current = resolve(node);
    if (path.length > 0) leaves.push({ path, node: current });
    if (depth > 3) return;
    for (const branch of branches(current) ?? []) {
      const inner = resolve(branch);
      if (typesOf(inner).includes('object') || typesOf(inner).includes('array')) {
        visit(inner, path, depth + 1);
      }
    }
    if (typesOf(current).includes('object') && current.properties) {
      objects.push({ path, node: current });
      for (const [name, child] of Object.entries(current.properties)) {
        visit(child, [...path, name], depth + 1);
      }
    }
    if (typesOf(current).includes('array') && current.items) {
      visit(current.items, [...path, 0], depth + 1);
    }
  };
  visit(root, [], 0);
  // A field reached through two union branches is the same field.
  const seen = new Set<string>();
  return {
    leaves: leaves.filter(({ path }) => {
      const id = JSON.stringify(path);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    }),
    objects,
  };
}

const clone = (value: unknown): unknown =>
  value === undefined ? undefined : structuredClone(value);

/** `base` with the value at `path` set (or removed, for `remove`), creating what is missing. */
function setPath(base: unknown, path: Path, value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Path];
  const container: Record<string | number, unknown> =
    typeof head === 'number'
      ? ((Array.isArray(base) ? [...base] : []) as unknown as Record<number, unknown>)
      : typeof base === 'object' && base !== null && !Array.isArray(base)
        ? { ...(base as Record<string, unknown>) }
        : {};
  if (remove && rest.length === 0) {
    delete container[head];
    return container;
  }
  const next = setPath(container[head], rest, value, remove);
  if (head === '__proto__') {
    Object.defineProperty(container, head, { value: next, enumerable: true, writable: true });
  } else {
    container[head] = next;
  }
  return container;
}

type Mutation = (value: unknown) => unknown;

/** Whether `value` holds a plain object at `path`. */
function isObjectAt(value: unknown, path: Path): boolean {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return false;
    current = (current as Record<string | number, unknown>)[step];
  }
  return typeof current === 'object' && current !== null && !Array.isArray(current);
}

/** The schema-driven cases of one location: fixed ones, and an arbitrary for the random ones. */
function casesFor(
  root: Node,
  location: Location,
  valid: (value: unknown) => boolean,
  /** Which share of the hostile texts this route gets. */
  salt: number,
) {
  const resolve = resolver(root);
  const { leaves, objects } = walk(root, resolve);
  // Query strings and paths are flat: only their top-level fields, and no value at the root.
  const fields = location === 'body' ? leaves : leaves.filter(({ path }) => path.length === 1);
  const stringFields = fields.filter(({ node }) => {
    const inner = branches(node)?.map(resolve) ?? [node];
    return inner.some((n) => typesOf(n).includes('string') && !n.enum && n.const === undefined);
  });
  const targets = stringFields.length ? stringFields : fields;

  // The base every fixed case changes: with every field, so that each has a value to break.
  const validBase =
    fc.sample(validValue(root, resolve, '', true), { numRuns: 30, seed: 42 }).find(valid) ??
    fc.sample(validValue(root, resolve), { numRuns: 30, seed: 42 }).find(valid) ??
    {};
  const fixed: Mutation[] = [];
  /** Unknown keys added to the valid base: ignored by the schema, so nothing else changes. */
  const extraKeyed: Mutation[] = [];
  fields.forEach(({ path, node }, i) => {
    for (const value of boundaryValues(node, resolve))
      fixed.push((base) => setPath(base, path, value));
    const confusion = TYPE_CONFUSION[(salt + i) % TYPE_CONFUSION.length];
    fixed.push((base) => setPath(base, path, confusion));
  });
  // A few hostile texts per route and location, different ones for each route, spread over
  // its text fields; a megabyte of text in three body text fields, in one field elsewhere.
  const hostile = location === 'params' ? HOSTILE_PER_LOCATION / 2 : HOSTILE_PER_LOCATION;
  for (let i = 0; i < hostile; i++) {
    const text = HOSTILE[(salt * HOSTILE_PER_LOCATION + i) % HOSTILE.length]!;
    const target = targets[i % Math.max(targets.length, 1)];
    if (target) fixed.push((base) => setPath(base, target.path, text));
  }
  targets.forEach(({ path }, i) => {
    if ((location === 'body' && i < 3) || i === salt % targets.length) {
      const huge = location === 'body' ? HUGE : HUGE_IN_URL;
      const text = huge[(salt + i) % huge.length]!;
      fixed.push((base) => setPath(base, path, text));
    }
  });
  // Text a database may not store, in every free-text field at once: kept apart, as the schema
  // accepts it and the service must still not fail on it.
  const takes = (node: Node, text: string) =>
    (branches(node)?.map(resolve) ?? [node]).some(
      (n) =>
        typesOf(n).includes('string') &&
        !n.enum &&
        n.const === undefined &&
        !n.pattern &&
        !n.format &&
        text.length >= (n.minLength ?? 0) &&
        text.length <= (n.maxLength ?? Number.POSITIVE_INFINITY),
    );
  const everyField = UNSTORABLE.map((text) =>
    fields
      .filter(({ node }) => takes(node, text))
      .reduce<unknown>((value, { path }) => setPath(value, path, text), clone(validBase)),
  );
  if (location !== 'params') {
    for (const { path, node } of objects) {
      if (location === 'querystring' && path.length > 0) continue;
      for (const name of node.required ?? []) {
        fixed.push((base) => setPath(base, [...path, name], undefined, true));
      }
      // Every unknown key at the top, two of them in nested objects.
      const extra = path.length === 0 ? EXTRA_KEYS : EXTRA_KEYS.slice(0, 2);
      // Into an object the base has: a new nested object would be a new field, not a key.
      const into = (base: unknown) => path.length === 0 || isObjectAt(base, path);
      for (const key of extra) {
        extraKeyed.push((base) => (into(base) ? setPath(base, [...path, key], 'x') : base));
      }
      if (location === 'body' && path.length === 0) {
        fixed.push((base) => setPath(base, ['__proto__'], { super: true }));
      }
    }
  }
  if (location === 'body') {
    for (const value of [...TYPE_CONFUSION, ...HOSTILE.slice(0, 5)]) fixed.push(() => value);
  }

  // '.' and '..' in a path are dot segments, which URL resolution removes (percent-encoded too)
  // before any route sees them: no client can send them as a param.
  const sendable = (value: unknown) =>
    location !== 'params' || !/^(\.|%2e){1,2}$/i.test(asParam(value));
  const badValue = (node: Node): fc.Arbitrary<unknown> => {
    const boundaries = boundaryValues(node, resolve);
    return fc
      .oneof(
        ...(boundaries.length ? [fc.constantFrom(...boundaries)] : []),
        fc.constantFrom(...HOSTILE),
        fc.constantFrom(...TYPE_CONFUSION),
        fc.constantFrom(...(location === 'body' ? HUGE : HUGE_IN_URL)),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.jsonValue({ maxDepth: 2 }),
        validValue(node, resolve),
      )
      .filter(sendable);
  };
  const mutations: fc.Arbitrary<Mutation>[] = fields.map(({ path, node }) =>
    badValue(node).map((value) => (base: unknown) => setPath(base, path, value)),
  );
  if (location !== 'params') {
    for (const { path, node } of objects) {
      if (location === 'querystring' && path.length > 0) continue;
      const names = Object.keys(node.properties ?? {});
      if (names.length) {
        mutations.push(
          fc
            .constantFrom(...names)
            .map((name) => (base: unknown) => setPath(base, [...path, name], undefined, true)),
        );
      }
      mutations.push(
        fc
          .tuple(
            fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ minLength: 1, maxLength: 20 })),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .filter(([key]) => !names.includes(key))
          .map(
            ([key, value]) =>
              (base: unknown) =>
                setPath(base, [...path, key], value),
          ),
      );
    }
  }
  if (location === 'body') {
    mutations.push(fc.constantFrom(...TYPE_CONFUSION, ...HOSTILE).map((value) => () => value));
  }
  // A valid-looking base: a few tries at one the schema accepts, so a change alone breaks it.
  const base = fc
    .array(validValue(root, resolve), { minLength: 4, maxLength: 4 })
    .map((tries) => tries.find(valid) ?? tries[0]);
  const random = mutations.length
    ? fc
        .tuple(base, fc.array(fc.oneof(...mutations), { minLength: 1, maxLength: 3 }))
        .map(([value, changes]) =>
          changes.reduce<unknown>((current, change) => change(current), clone(value)),
        )
    : base;
  return {
    fixed: fixed.map((change) => change(clone(validBase))),
    extras: extraKeyed.map((change) => change(clone(validBase))),
    everyField: fields.some(({ node }) => takes(node, UNSTORABLE[0]!)) ? everyField : [],
    random,
    validBase,
  };
}

// --- what the server sees ---------------------------------------------------------------------

/** Lone surrogates cannot travel in a URL (encodeURIComponent throws): U+FFFD in their place. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const asText = (value: unknown): string =>
  wellFormed(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

type Query = Record<string, string | string[]>;

/** A value as the query string parser hands it over: text, or a list for a repeated key. */
function asQuery(value: unknown): Query {
  const query: Query = {};
  const object =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  for (const [key, field] of Object.entries(object)) {
    if (key === '' || key === '__proto__' || field === undefined) continue;
    const items = Array.isArray(field) ? field.map(asText) : [asText(field === null ? '' : field)];
    if (items.length === 1) query[wellFormed(key)] = items[0]!;
    else if (items.length > 1) query[wellFormed(key)] = items;
  }
  return query;
}

const encodeQuery = (query: Query) =>
  Object.entries(query)
    .flatMap(([key, value]) =>
      [value].flat().map((item) => `${encodeURIComponent(key)}=${encodeURIComponent(item)}`),
    )
    .join('&');

/** A path value never empty (an empty segment is another route, not a bad id). */
const asParam = (value: unknown) => asText(value) || ' ';

/** Percent-encodings that are not UTF-8: the URL itself is malformed. */
const MALFORMED_ENCODINGS = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF'];

interface Case {
  params: Record<string, string>;
  /** A param sent as is, not encoded: a malformed URL. */
  rawParam?: [string, string];
  query: Query;
  rawQuery?: string;
  body: { kind: 'none' } | { kind: 'json'; value: unknown };
}

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** A case as sent: its URL, and its body as JSON text (none: no body at all). */
interface Wire {
  url: string;
  json?: string;
}

const wireOf = (route: CatalogRoute, input: Case): Wire => ({
  url: urlOf(route, input),
  json:
    input.body.kind === 'json'
      ? (JSON.stringify(ownSecrets(input.body.value)) ?? 'null')
      : undefined,
});

let secretSerial = 0;
/**
 * The server's leak scan takes every Cloud API secret a caller sends for a secret, and fails on
 * finding it in any later answer. The sweep sends the same texts to many fields (a hostile text,
 * a prototype name that 400s echo as an unknown key), so each secret it sends starts with a mark
 * of its own instead: same length, same tail, so as valid or invalid as it was.
 */
function ownSecrets(body: unknown): unknown {
  const cloud = (body as { cloudApi?: unknown } | null | undefined)?.cloudApi;
  if (typeof cloud !== 'object' || cloud === null || Array.isArray(cloud)) return body;
  const secrets: Record<string, unknown> = { ...cloud };
  for (const key of ['accessToken', 'appSecret', 'verifyToken']) {
    const value = secrets[key];
    const mark = `S${++secretSerial}S`;
    if (typeof value === 'string' && value.length > mark.length) {
      secrets[key] = mark + value.slice(mark.length);
    }
  }
  return { ...(body as object), cloudApi: secrets };
}

/** Whether the route's own schemas refuse the case as the server receives it. */
function verdict(route: CatalogRoute, input: Case, wire: Wire): 'refused' | 'accepted' | 'unclear' {
  if (input.rawParam) return 'refused';
  if (input.rawQuery !== undefined) return 'unclear';
  const checks: boolean[] = [];
  const params = zodOf(route, 'params');
  if (params) checks.push(params.safeParse(input.params).success);
  const query = zodOf(route, 'querystring');
  if (query) checks.push(query.safeParse(input.query).success);
  const body = zodOf(route, 'body');
  if (body) {
    if (wire.json === undefined) {
      const withUndefined = body.safeParse(undefined).success;
      if (withUndefined !== body.safeParse(null).success) return 'unclear';
      checks.push(withUndefined);
    } else {
      checks.push(body.safeParse(JSON.parse(wire.json)).success);
    }
  }
  return checks.every(Boolean) ? 'accepted' : 'refused';
}

// --- requests ---------------------------------------------------------------------------------

/**
 * The external API reads its form only for a connection's token (a session's is refused before
 * the form): the upload sweep sends that one, the others a session's (a send accepted there
 * would write to company A).
 */
let formsWithConnectionToken = false;

const tokenFor = (route: CatalogRoute) =>
  formsWithConnectionToken && route.url === '/api/messages/send'
    ? world.a.apiToken
    : route.access !== 'public' && PERMISSIONS[route.access as PermissionName].role === 'super'
      ? world.superToken
      : world.a.admin.token;

let address = 0;
/** Each request from its own address, so rate limits answer only where they are meant to. */
const nextAddress = () => {
  address += 1;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

/** Path params the world does not know yet: a value the schema accepts stands in for them. */
const unknownIds = new Set<string>();
const knownParams = new Map<CatalogRoute, Record<string, string>>();

/** Company A's own values of the route's path params. */
function realParams(route: CatalogRoute): Record<string, string> {
  const known = knownParams.get(route);
  if (known) return { ...known };
  const area = route.url.split('/')[1] ?? '';
  const schema = zodOf(route, 'params');
  const properties = schema ? (jsonSchemaOf(schema).properties ?? {}) : {};
  const params: Record<string, string> = {};
  for (const [, name] of route.url.matchAll(/:([A-Za-z]+)/g)) {
    if (!name) continue;
    try {
      const path = pathFor({ ...route, url: `/${area}/:${name}` }, world.a, world);
      params[name] = decodeURIComponent(path.split('/')[2] ?? '');
    } catch {
      // pathFor refuses an id it does not know; this sweep needs only one the schema accepts.
      unknownIds.add(`${route.method} ${route.url} :${name}`);
      params[name] = asParam(sampleOf(properties[name] ?? {}));
    }
  }
  knownParams.set(route, params);
  return { ...params };
}

function urlOf(route: CatalogRoute, input: Case): string {
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    input.rawParam?.[0] === name ? input.rawParam[1] : encodeURIComponent(input.params[name] ?? ''),
  );
  const query = input.rawQuery ?? encodeQuery(input.query);
  return query ? `${path}?${query}` : path;
}

function send(
  route: CatalogRoute,
  url: string,
  payload?: { body: string | Buffer; type: string } | undefined,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: route.method as 'POST',
    url,
    remoteAddress: nextAddress(),
    headers: {
      authorization: `Bearer ${tokenFor(route)}`,
      ...(payload ? { 'content-type': payload.type } : {}),
    },
    ...(payload ? { payload: payload.body } : {}),
  });
}

const sendWire = (route: CatalogRoute, wire: Wire) =>
  send(
    route,
    wire.url,
    wire.json === undefined ? undefined : { body: wire.json, type: 'application/json' },
  );

const describeWire = (route: CatalogRoute, wire: Wire) =>
  `${route.method} ${wire.url.slice(0, 300)} body ${wire.json?.slice(0, 300) ?? '(none)'}`;

const ERROR_CODE = /^ERR_[A-Z_]+$/;

/**
 * 5xx answers a route gives on purpose: the webhook asks Meta to retry while its session is down,
 * and a checkout of an existing invoice says the server has no payment provider key (the super
 * user has not saved one; no input of the caller's could mend it).
 */
const DELIBERATE_5XX: Record<string, string> = {
  'GET /webhooks/cloud-api/:connectionId': 'ERR_WAPP_NOT_INITIALIZED',
  'POST /webhooks/cloud-api/:connectionId': 'ERR_WAPP_NOT_INITIALIZED',
  'POST /subscription': 'ERR_PAYMENT_NOT_CONFIGURED',
};

function expectRefused(response: LightMyRequestResponse, context: string) {
  const detail = `${context} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, detail).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, detail).toBeLessThan(500);
  expect(response.headers['content-type'], detail).toMatch(/^application\/json/);
  expect((response.json() as { error?: string }).error, detail).toMatch(ERROR_CODE);
}

/** As expectRefused, but a route's deliberate 5xx (see DELIBERATE_5XX) is let through. */
function expectRefusedBy(route: CatalogRoute, response: LightMyRequestResponse, context: string) {
  const deliberate = DELIBERATE_5XX[`${route.method} ${route.url}`];
  if (deliberate && response.statusCode === 503) {
    expect(response.json(), context).toEqual({ error: deliberate });
    return;
  }
  expectRefused(response, context);
}

function expectNoServerError(
  route: CatalogRoute,
  response: LightMyRequestResponse,
  context: string,
) {
  const detail = `${context} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode === 503 && DELIBERATE_5XX[`${route.method} ${route.url}`]) {
    expect(response.json(), detail).toEqual({
      error: DELIBERATE_5XX[`${route.method} ${route.url}`],
    });
    return;
  }
  expect(response.statusCode, detail).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect((response.json() as { error?: string }).error, detail).toMatch(ERROR_CODE);
  }
}

/** Company A's rows, and the global tables every company shares. */
async function fingerprint(): Promise<string> {
  const { rows } = await t.database.db.execute<Record<string, string>>(sql`select
    (select count(*) from plans) as plans,
    (select count(*) from companies) as companies,
    (select count(*) from helps) as helps,
    (select md5(coalesce(string_agg(n::text, '|' order by n.id), '')) from announcements n) as announcement_rows,
    (select md5(coalesce(string_agg(p::text, '|' order by p.id), '')) from plans p) as plan_rows,
    (select md5(coalesce(string_agg(h::text, '|' order by h.id), '')) from helps h) as help_rows`);
  return `${JSON.stringify(rows[0])}\n${await snapshot(t, world.a.companyId)}`;
}

/** Every file under the storage folder: uploads that were refused must not stay behind. */
function storedFiles(dir = t.app.platform.config.STORAGE_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath}/${entry.name}`)
    .sort();
}

// --- bodies that are not JSON -----------------------------------------------------------------

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const MALFORMED_JSON = [
  '{',
  '{"name":',
  "{'name': 'x'}",
  '{"name": "x",}',
  '[1,',
  'nul',
  'undefined',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"a": NaN}',
  '{"a": 01}',
  '{"__proto__": {"super": true}}',
  '{"constructor": {"prototype": {"super": true}}}',
  `{"name": "${'a'.repeat(MB)}`,
  '['.repeat(10_000),
];

const xmlOf = (value: unknown) =>
  `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><body>${JSON.stringify(value)}&e;</body>`;
const formOf = (value: unknown) =>
  new URLSearchParams(
    Object.entries(typeof value === 'object' && value !== null ? value : { value }).map(
      ([key, field]): [string, string] => [
        key,
        typeof field === 'string' ? field : (JSON.stringify(field) ?? ''),
      ],
    ),
  ).toString();

/** Other content types, each with the valid body written as that type would have it. */
const WRONG_TYPES: [string, (value: unknown) => string][] = [
  ['text/plain', (value) => JSON.stringify(value)],
  ['application/xml', xmlOf],
  ['text/xml', xmlOf],
  ['application/x-www-form-urlencoded', formOf],
  ['multipart/form-data; boundary=sweep', formOf],
  ['text/html; charset=utf-8', (value) => `<p>${JSON.stringify(value)}</p>`],
  ['application/octet-stream', (value) => JSON.stringify(value)],
  ['application/jsonp', (value) => JSON.stringify(value)],
];

// --- the sweep --------------------------------------------------------------------------------

const counts = {
  routes: new Set<string>(),
  locations: { params: 0, querystring: 0, body: 0 },
  /** Refused cases per location. */
  cases: { params: 0, querystring: 0, body: 0 },
  refused: 0,
  accepted: 0,
  /** Valid inputs with an unknown key the schema dropped. */
  extraKeys: 0,
  statuses: new Map<number, number>(),
  bodyRoutes: 0,
  malformed: 0,
  contentTypes: 0,
  oversized: 0,
  multipart: 0,
};
const tally = (status: number) =>
  counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);

interface Deferred {
  route: CatalogRoute;
  wire: Wire;
}
const deferred: Deferred[] = [];

const withSchema = () =>
  t.app.routeCatalog.filter((route) => LOCATIONS.some((location) => zodOf(route, location)));

/** A location's schema on a generated value, as the server would receive it. */
function parsed(route: CatalogRoute, location: Location, value: unknown) {
  const schema = zodOf(route, location);
  if (!schema) return { success: true, data: undefined };
  if (location === 'params') return schema.safeParse(paramsOf(route, value));
  if (location === 'querystring') return schema.safeParse(asQuery(value));
  return schema.safeParse(roundTrip(value));
}

/** Whether a location's schema accepts a generated value, as the server would receive it. */
const accepts = (route: CatalogRoute, location: Location, value: unknown): boolean =>
  parsed(route, location, value).success;

const plans = new Map<CatalogRoute, { plan: Plan; base: Case }>();
type Plan = Partial<Record<Location, ReturnType<typeof casesFor>>>;

/** A route's cases per location, and a valid case to vary one location at a time. */
function defaults(route: CatalogRoute) {
  const known = plans.get(route);
  if (known) return known;
  const salt = t.app.routeCatalog.indexOf(route);
  const plan: Plan = {};
  for (const location of LOCATIONS) {
    const schema = zodOf(route, location);
    if (!schema) continue;
    plan[location] = casesFor(
      jsonSchemaOf(schema),
      location,
      (value) => accepts(route, location, value),
      salt,
    );
  }
  const base: Case = {
    params: realParams(route),
    query: plan.querystring ? asQuery(plan.querystring.validBase) : {},
    body: plan.body ? { kind: 'json', value: plan.body.validBase } : { kind: 'none' },
  };
  plans.set(route, { plan, base });
  return { plan, base };
}

/** Generated params: company A's values, with the fields the generator set in their place. */
function paramsOf(route: CatalogRoute, value: unknown): Record<string, string> {
  const params = realParams(route);
  if (typeof value === 'object' && value !== null) {
    for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
      if (name in params && field !== undefined) params[name] = asParam(field);
    }
  }
  return params;
}

function caseAt(route: CatalogRoute, base: Case, location: Location, value: unknown): Case {
  if (location === 'params') return { ...base, params: paramsOf(route, value) };
  if (location === 'querystring') return { ...base, query: asQuery(value) };
  return { ...base, body: value === undefined ? { kind: 'none' } : { kind: 'json', value } };
}

const keptPerKind = new Map<string, number>();

/** A few requests in flight at once: the server and the database work side by side. */
async function inBatches<T>(items: T[], run: (item: T) => Promise<void>, size = 4) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(run));
  }
}

/** Sends a case the schema refuses; keeps one it accepts for the last phase (a few per kind). */
async function runCase(route: CatalogRoute, input: Case, kind: string) {
  const wire = wireOf(route, input);
  if (verdict(route, input, wire) !== 'refused') {
    const key = `${route.method} ${route.url} ${kind}`;
    const kept = keptPerKind.get(key) ?? 0;
    if (kept < ACCEPTED_PER_KIND) {
      keptPerKind.set(key, kept + 1);
      deferred.push({ route, wire });
    }
    return;
  }
  const response = await sendWire(route, wire);
  tally(response.statusCode);
  counts.refused += 1;
  counts.cases[kind.split(' ')[0] as Location] += 1;
  expectRefused(response, describeWire(route, wire));
}

/**
 * The valid base with an unknown key: the route's schema drops the key, so its handler gets the
 * very input of the base and the outcome cannot differ; the request is sent in the last phase,
 * where it must not be answered 5xx. A schema that refuses unknown keys (the simulator's own
 * routes) has the case sent as a refused one.
 */
async function runExtraKey(
  route: CatalogRoute,
  base: Case,
  location: Location,
  validBase: unknown,
  value: unknown,
) {
  const withKey = parsed(route, location, value);
  const without = parsed(route, location, validBase);
  if (withKey.success && without.success) {
    expect(withKey.data, `${route.method} ${route.url} ${location} ${asText(value)}`).toEqual(
      without.data,
    );
    counts.extraKeys += 1;
    // The handler's input is the base's: a few of them on the wire are enough.
    const key = `${route.method} ${route.url} ${location} extra key`;
    const kept = keptPerKind.get(key) ?? 0;
    if (kept < EXTRA_KEYS_SENT) {
      keptPerKind.set(key, kept + 1);
      deferred.push({ route, wire: wireOf(route, caseAt(route, base, location, value)) });
    }
    return;
  }
  await runCase(route, caseAt(route, base, location, value), `${location} extra key`);
}

describe('bad-input sweep over every route with a schema', () => {
  it('answers input its schema refuses with 4xx and an error code, and changes nothing', async () => {
    const routes = withSchema();
    expect(routes.length).toBeGreaterThan(50);
    let before = await fingerprint();
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      counts.routes.add(label);
      const { plan, base } = defaults(route);
      for (const location of LOCATIONS) {
        const cases = plan[location];
        if (!cases) continue;
        counts.locations[location] += 1;
        await inBatches(cases.fixed, (value) =>
          runCase(route, caseAt(route, base, location, value), `${location} fixed`),
        );
        await inBatches(cases.extras, (value) =>
          runExtraKey(route, base, location, cases.validBase, value),
        );
        await inBatches(cases.everyField, (value) =>
          runCase(route, caseAt(route, base, location, value), `${location} every field`),
        );
        if (location === 'body') {
          await runCase(route, { ...base, body: { kind: 'none' } }, 'body fixed');
        }
        await fc.assert(
          fc.asyncProperty(cases.random, async (value) => {
            await runCase(route, caseAt(route, base, location, value), `${location} generated`);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        if (location === 'params') {
          // Half of the malformed encodings in each param, the other half on the next route.
          const salt = t.app.routeCatalog.indexOf(route);
          for (const name of Object.keys(base.params)) {
            for (const [i, raw] of MALFORMED_ENCODINGS.entries()) {
              if (i % 2 !== salt % 2) continue;
              await runCase(route, { ...base, rawParam: [name, raw] }, 'params fixed');
            }
          }
        }
        if (location === 'querystring') {
          for (const raw of MALFORMED_ENCODINGS) {
            const key = Object.keys(cases.validBase as object)[0] ?? 'q';
            const input = { ...base, rawQuery: `${key}=${raw}` };
            deferred.push({ route, wire: wireOf(route, input) });
          }
        }
      }
      const after = await fingerprint();
      expect(after, `${label} changed company A or the global tables`).toBe(before);
      before = after;
    }
  }, 300_000);

  it('answers malformed JSON, other content types and bodies over the limit with 4xx', async () => {
    const writes = t.app.routeCatalog.filter((route) =>
      ['POST', 'PUT', 'PATCH'].includes(route.method),
    );
    const before = await fingerprint();
    const malformed = [
      ...MALFORMED_JSON,
      ...fc.sample(
        fc.string({ minLength: 1, maxLength: 60 }).filter((text) => !parses(text)),
        { numRuns: RUNS, seed: SEED ?? 11 },
      ),
    ];
    for (const route of writes) {
      const label = `${route.method} ${route.url}`;
      const hasBody = Boolean(zodOf(route, 'body'));
      counts.bodyRoutes += 1;
      const { base } = defaults(route);
      const url = urlOf(route, { ...base, body: { kind: 'none' } });
      const body = ownSecrets(base.body.kind === 'json' ? base.body.value : {});

      for (const text of malformed) {
        const response = await send(route, url, { body: text, type: 'application/json' });
        counts.malformed += 1;
        tally(response.statusCode);
        expectRefusedBy(route, response, `${label} with JSON ${JSON.stringify(text.slice(0, 80))}`);
        // Where the route reads a JSON body, the parser refuses it; other routes may refuse the
        // caller first (the refresh route reads its cookie before the body).
        if (hasBody) expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      }

      // A valid body under a type the route does not parse. Without a body schema, text/plain
      // is a body the route ignores, so only the types without a parser are refused there.
      const types = WRONG_TYPES.filter(
        ([type]) =>
          (hasBody || type !== 'text/plain') &&
          !(type.startsWith('multipart/') && MULTIPART_ROUTES[label]),
      );
      for (const [type, encode] of types) {
        const response = await send(route, url, { body: encode(body), type });
        counts.contentTypes += 1;
        tally(response.statusCode);
        expectRefusedBy(route, response, `${label} as ${type}`);
        expect(response.statusCode, `${label} as ${type}`).toBe(type === 'text/plain' ? 400 : 415);
      }
      const untyped = await t.app.inject({
        method: route.method as 'POST',
        url,
        payload: JSON.stringify(body),
        remoteAddress: nextAddress(),
        headers: { authorization: `Bearer ${tokenFor(route)}` },
      });
      counts.contentTypes += 1;
      expectRefusedBy(route, untyped, `${label} without a content type`);

      const limit = BODY_LIMITS[label] ?? DEFAULT_BODY_LIMIT;
      const oversized = JSON.stringify({ ...(body as object), padding: 'a'.repeat(limit + 1024) });
      const response = await send(route, url, { body: oversized, type: 'application/json' });
      counts.oversized += 1;
      tally(response.statusCode);
      expectRefused(response, `${label} with ${oversized.length} bytes`);
      expect(response.statusCode, label).toBe(413);
      expect(response.json(), label).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    }
    expect(await fingerprint()).toBe(before);
  }, 300_000);

  it('refuses multipart forms over the upload limits, keeping no file', async () => {
    const writes = t.app.routeCatalog.filter((route) =>
      ['POST', 'PUT', 'PATCH'].includes(route.method),
    );
    const before = await fingerprint();
    const filesBefore = storedFiles();
    formsWithConnectionToken = true;
    // Which routes parse multipart at all: the others answer a form with 415.
    const parsesForms: string[] = [];
    for (const route of writes) {
      const label = `${route.method} ${route.url}`;
      const { base } = defaults(route);
      const probe = form({}, [
        { field: 'sweep-unknown', name: 'a.txt', type: 'text/plain', content: Buffer.from('x') },
      ]);
      const response = await send(route, urlOf(route, { ...base, body: { kind: 'none' } }), {
        body: probe.payload,
        type: probe.headers['content-type'],
      });
      expectRefused(response, `${label} with an unknown form field`);
      if (response.statusCode !== 415) parsesForms.push(label);
    }
    expect(parsesForms.sort()).toEqual(Object.keys(MULTIPART_ROUTES).sort());

    for (const [label, field] of Object.entries(MULTIPART_ROUTES)) {
      const route = writes.find((candidate) => `${candidate.method} ${candidate.url}` === label)!;
      const url = urlOf(route, { ...defaults(route).base, body: { kind: 'none' } });
      const file = (content: Buffer, name = 'big.pdf') => ({
        field,
        name,
        type: UPLOAD_TYPES[label] ?? 'application/pdf',
        content,
      });
      const pdf = Buffer.concat([
        Buffer.from('%PDF-1.4\n'),
        Buffer.alloc(MEDIA_MAX_BYTES + 1024, 32),
      ]);
      const full = form({ body: 'x' }, [file(Buffer.from('%PDF-1.4\n'))]);
      const forms: { what: string; sent: ReturnType<typeof form>; status?: number }[] = [
        { what: 'a file over the limit', sent: form({ body: 'x' }, [file(pdf)]), status: 413 },
        {
          what: 'more files than allowed',
          sent: form(
            {},
            Array.from({ length: MEDIA_MAX_FILES + 1 }, (_, i) =>
              file(Buffer.from('%PDF-1.4\n'), `f${i}.pdf`),
            ),
          ),
        },
        { what: 'a text field over its limit', sent: form({ body: 'b'.repeat(MB) }, []) },
        {
          what: 'prototype field names',
          sent: form(
            Object.fromEntries([
              ['__proto__', 'x'],
              ['constructor', 'x'],
            ]),
            [],
          ),
        },
        {
          what: 'a form cut short',
          sent: { ...full, payload: full.payload.subarray(0, full.payload.length - 30) },
        },
      ];
      for (const { what, sent, status } of forms) {
        const response = await send(route, url, {
          body: sent.payload,
          type: sent.headers['content-type'],
        });
        counts.multipart += 1;
        tally(response.statusCode);
        expectRefused(response, `${label} with ${what}`);
        if (status) expect(response.statusCode, `${label} with ${what}`).toBe(status);
      }
      for (const type of ['multipart/form-data', 'multipart/form-data; boundary=']) {
        const response = await send(route, url, { body: 'garbage', type });
        counts.multipart += 1;
        tally(response.statusCode);
        expectRefused(response, `${label} as ${type} with no form`);
      }
    }
    formsWithConnectionToken = false;
    expect(await fingerprint()).toBe(before);
    expect(storedFiles()).toEqual(filesBefore);
  }, 300_000);

  it('never answers 5xx to input its schema accepts', async () => {
    // Last the routes that can lock company A out or remove its rows, so the rest run first.
    const rank = ({ route }: Deferred) =>
      (route.access !== 'public' && PERMISSIONS[route.access as PermissionName].role === 'super'
        ? 2
        : 0) + (route.method === 'DELETE' ? 1 : 0);
    const ordered = [...deferred].sort((a, b) => rank(a) - rank(b));
    for (const { route, wire } of ordered) {
      const response = await sendWire(route, wire);
      tally(response.statusCode);
      counts.accepted += 1;
      expectNoServerError(route, response, describeWire(route, wire));
    }
  }, 300_000);
});

afterAll(() => {
  const statuses = [...counts.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}x${n}`)
    .join(' ');
  console.info(
    `bad-input sweep: ${counts.routes.size} routes with a schema ` +
      `(params ${counts.locations.params}, querystring ${counts.locations.querystring}, ` +
      `body ${counts.locations.body}); ${counts.refused} refused cases ` +
      `(params ${counts.cases.params}, querystring ${counts.cases.querystring}, ` +
      `body ${counts.cases.body}), ` +
      `${counts.accepted} accepted cases (${counts.extraKeys} with an unknown key dropped); ` +
      `${counts.bodyRoutes} write routes x ` +
      `(${counts.malformed} malformed JSON, ${counts.contentTypes} content types, ` +
      `${counts.oversized} oversized); ${counts.multipart} multipart cases; ` +
      `answers ${statuses}; ${RUNS} generated cases per route and location` +
      (unknownIds.size ? `; ids the world does not know: ${[...unknownIds].join(', ')}` : ''),
  );
});
