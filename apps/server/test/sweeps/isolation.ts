import { DEFAULT_SCHEDULES } from '@atendi/shared';
import { z } from 'zod';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import type { TestServer } from '../harness';
import { pathFor, snapshot, type Tenant, type World } from './world';

/**
 * The tenant-isolation sweep: company B's admin calls every registered route with company A's
 * ids and must get nothing of A and change nothing of A.
 *
 * - A path that names A's rows answers 404 or 403 with `{ error: 'ERR_...' }`.
 * - A body or query field that names a row (`ticketId`, `queueIds`, `tags[].id`, `quotedMsg.id`,
 *   `companyId`...) is tried on its own, with B's own ids everywhere else, so a field the
 *   service checks cannot hide one it forgets. A's id must be treated exactly like an id that
 *   exists nowhere: the same refusal (404, 403, or 400 naming the field, with the same code), or,
 *   for a field the server ignores, the same success, with A's id nowhere in the answer.
 * - A list route (GET without path ids) answers nothing of A, also when its query names A's
 *   ids. Public routes, which have no caller company, must answer nothing of A either.
 * - A's rows are fingerprinted around every call, so a change is pinned on the call that made it.
 *
 * Bodies and queries are built from the route's own zod schema and checked with `safeParse`
 * before they are sent, so every call reaches the service instead of stopping at validation.
 * A field named like an id that the sweep cannot place is reported, never skipped silently.
 */

/** What a row reference points at; `help` and `plan` are platform rows, shared by companies. */
export type Kind =
  | 'user'
  | 'queue'
  | 'queueOption'
  | 'connection'
  | 'contact'
  | 'ticket'
  | 'message'
  | 'note'
  | 'tag'
  | 'quickMessage'
  | 'schedule'
  | 'contactList'
  | 'contactListItem'
  | 'campaign'
  | 'fileList'
  | 'fileListOption'
  | 'chat'
  | 'invoice'
  | 'company'
  | 'plan'
  | 'help'
  | 'announcement'
  | 'prompt'
  | 'queueIntegration';

const GLOBAL_KINDS = new Set<Kind>(['plan', 'help', 'announcement']);

/** A field's name, less its Id/Ids suffix, to the rows it names. */
const KIND_BY_NAME: Record<string, Kind> = {
  user: 'user',
  users: 'user',
  queue: 'queue',
  queues: 'queue',
  transferQueue: 'queue',
  /** A bot menu option's parent option. */
  parent: 'queueOption',
  whatsapp: 'connection',
  connection: 'connection',
  contact: 'contact',
  contacts: 'contact',
  ticket: 'ticket',
  tickets: 'ticket',
  message: 'message',
  quotedMsg: 'message',
  note: 'note',
  tag: 'tag',
  tags: 'tag',
  quickMessage: 'quickMessage',
  schedule: 'schedule',
  contactList: 'contactList',
  tagList: 'tag',
  campaign: 'campaign',
  /** A file list (`fileId` of its upload form, a campaign's `fileListId`). */
  file: 'fileList',
  fileList: 'fileList',
  /** A file list's options (`options[].id`). */
  options: 'fileListOption',
  chat: 'chat',
  invoice: 'invoice',
  company: 'company',
  plan: 'plan',
  help: 'help',
  announcement: 'announcement',
  prompt: 'prompt',
  integration: 'queueIntegration',
};

/** Plural names that carry a list of ids without the `Ids` suffix (`tags=[1,2]`). */
const ID_LIST_NAMES = new Set(['tags', 'users', 'queues', 'contacts', 'tickets']);

/** A route's first path segment to the rows a bare `id` (path or body) names there. */
const KIND_BY_AREA: Record<string, Kind> = {
  users: 'user',
  companies: 'company',
  plans: 'plan',
  helps: 'help',
  announcements: 'announcement',
  queue: 'queue',
  'queue-options': 'queueOption',
  whatsapp: 'connection',
  whatsappsession: 'connection',
  simulator: 'connection',
  tickets: 'ticket',
  messages: 'message',
  contacts: 'contact',
  'ticket-notes': 'note',
  tags: 'tag',
  'quick-messages': 'quickMessage',
  schedules: 'schedule',
  'contact-lists': 'contactList',
  'contact-list-items': 'contactListItem',
  campaigns: 'campaign',
  files: 'fileList',
  chats: 'chat',
  invoices: 'invoice',
  prompt: 'prompt',
  queueIntegration: 'queueIntegration',
};

/**
 * Fields named like ids that name no row of another company, and why. A new one must be added
 * here with its reason, or given a kind above.
 */
export const NOT_ROWS: Record<string, string> = {
  'extraInfo[].id': "a contact's extra fields are stored whole; the id is dropped",
  'cloudApi.phoneNumberId': "the Graph API's phone number id, not a row",
  quotedProviderMessageId:
    "a WhatsApp message id of the simulated phone, resolved within the connection's company",
};

/** List routes that list platform rows, the same for every company by design. */
export const PLATFORM_LISTS: Record<string, string> = {
  'GET /plans/list': 'the public plan catalogue of the sign-up page',
  'GET /plans/register': "the same catalogue, as the original client's sign-up page asks for it",
};

export interface Violation {
  route: string;
  case: string;
  problem: string;
}

/** A body or query to start from: what the schema leaves open, id fields set on top. */
export interface Example {
  body?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/**
 * What the generator cannot make up from a schema, by route: a text the service requires, a
 * flag that widens a list to everything the caller may see. Id fields are still set from the
 * schema on top of these.
 */
let itemNumber = 0;

export const EXAMPLES: Record<string, Example> = {
  // The schema lets `body` default to '', but a message without media needs a text.
  'POST /messages/:ticketId': { body: { body: 'Isolation sweep message' } },
  // Without showAll an admin sees only its own tickets and the waiting line.
  'GET /tickets': { query: { showAll: 'true' } },
  // The dashboard needs a period ('Parametrize o filtro').
  'GET /dashboard': { query: { days: '90' } },
  // The hours must be a whole week, each day once.
  'PUT /companies/:id/schedules': { body: { schedules: DEFAULT_SCHEDULES } },
  // A schedule's time is a date-time text.
  'POST /schedules': {
    body: { body: 'Isolation sweep schedule', sendAt: '2031-01-01T10:00:00.000Z' },
  },
  'PUT /schedules/:id': { body: { sendAt: '2031-01-01T10:00:00.000Z' } },
  // A list's number must be a phone number, not any text of its length; a new one each call,
  // or the second create is refused as a repeat of the first.
  'POST /contact-list-items': {
    get body() {
      itemNumber += 1;
      return {
        name: 'Isolation sweep item',
        number: `55119876${String(itemNumber).padStart(5, '0')}`,
      };
    },
  },
  'PUT /contact-list-items/:id': { body: { number: '5511987650002' } },
  // An integration the service takes whole: a webhook at an address the outbound guard refuses
  // at once (a documentation range), so a try never waits on the network.
  'POST /queueIntegration': {
    body: { type: 'webhook', name: 'Isolation sweep hook', urlN8N: 'http://192.0.2.1/hook' },
  },
  'POST /queueIntegration/testSession': {
    body: { type: 'webhook', urlN8N: 'http://192.0.2.1/hook' },
  },
  // A chat message needs a text.
  'POST /chats/:id/messages': { body: { message: 'Isolation sweep chat message' } },
  // A sign-up the schema accepts, so the referring companyId (A's) is what is tried.
  'POST /companies/cadastro': {
    body: {
      name: 'Isolation sweep signup',
      email: 'isolation-sweep-signup@example.com',
      phone: '11999998888',
      password: 'sweep-pass',
    },
  },
};

export interface SweepReport {
  /** Routes whose path or body names rows (not GET lists, not public), and their calls. */
  idRoutes: string[];
  idCases: number;
  /** GET routes without path ids, and the calls made on them (plain, and naming A's ids). */
  listRoutes: string[];
  listCases: number;
  /** Public routes (no caller company) called with A's ids: they must answer nothing of A. */
  publicRoutes: string[];
  publicCases: number;
  /** Routes that name no row and list nothing (sign-in, a setting by its key...). */
  withoutIds: string[];
  /** `METHOD /url | case -> status [with B's data] [code]` of every call: what the sweep saw. */
  answers: string[];
  /** `route field` of reference fields the server ignores (A's id acts like a missing one). */
  ignored: string[];
  /** `route field: reason` for every id-named field left out (NOT_ROWS, platform rows). */
  notRows: string[];
  violations: Violation[];
}

export interface SweepOptions {
  /** The routes to walk; every route of the app when absent. */
  routes?: CatalogRoute[];
  /** More examples, by `METHOD /url`, over EXAMPLES. */
  examples?: Record<string, Example>;
}

// ---------------------------------------------------------------------------------------------
// Building values from a route's schema

interface Json {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
  allOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
}

type Path = string[];
const label = (path: Path) => path.join('.').replace(/\.\[\]/g, '[]');

const toJson = (schema: z.ZodType): Json =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;

const branches = (schema: Json) => [
  ...(schema.anyOf ?? []),
  ...(schema.oneOf ?? []),
  ...(schema.allOf ?? []),
];
const typeOf = (schema: Json) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** A number, a string, or a list of them: what an id reference can be sent as. */
function idShaped(schema: Json): boolean {
  const options = branches(schema);
  if (options.length) {
    const values = options.filter((option) => typeOf(option) !== 'null');
    return values.length > 0 && values.every(idShaped);
  }
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number' || type === 'string') return true;
  return type === 'array' && !!schema.items && idShaped(schema.items);
}

/** Whether the schema takes a list (`tags=[1,2]`), as a count named `users` does not. */
function takesList(schema: Json): boolean {
  return typeOf(schema) === 'array' || branches(schema).some(takesList);
}

const isIdName = (name: string, schema: Json) =>
  name === 'id' || /[a-z]Ids?$/.test(name) || (ID_LIST_NAMES.has(name) && takesList(schema));

/** Every place in the schema that holds a row reference (`quotedMsg.id`, `tags[].id`...). */
function idPaths(schema: Json, at: Path = [], out: Path[] = []): Path[] {
  for (const option of branches(schema)) idPaths(option, at, out);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...at, name];
    if (isIdName(name, property) && idShaped(property)) {
      if (!out.some((known) => label(known) === label(path))) out.push(path);
    } else {
      idPaths(property, path, out);
    }
  }
  if (schema.items) idPaths(schema.items, [...at, '[]'], out);
  return out;
}

/** The name the rows of a reference are known by: `tags[].id` -> tags, `queueIds` -> queue. */
function referenceName(path: Path, route: CatalogRoute): string {
  const names = path.filter((segment) => segment !== '[]');
  const last = names.at(-1) ?? '';
  if (last !== 'id') return last.replace(/Ids?$/, '');
  const parent = names.at(-2);
  return parent ?? `area:${route.url.split('/')[1] ?? ''}`;
}

function kindOf(path: Path, route: CatalogRoute): Kind | undefined {
  const name = referenceName(path, route);
  if (name.startsWith('area:')) return KIND_BY_AREA[name.slice(5)];
  return KIND_BY_NAME[name];
}

const FAIL = Symbol('cannot build');
type Built = unknown | typeof FAIL;

let unique = 0;
const stringCandidates = (key: string) => {
  unique += 1;
  const email = `isolation-sweep-${process.pid}-${unique}@example.com`;
  // Unique, so a second create of the same route is not refused as a duplicate.
  const general = [
    `Sweep ${unique}`,
    `sweep-${unique}`,
    '#123456',
    '5511987650000',
    '2030-01-01',
    '12:00',
  ];
  return /email/i.test(key) ? [email, ...general] : [...general, email];
};

const pattern = (source: string) => {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
};

function fitsString(schema: Json, value: string): boolean {
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.pattern && !pattern(schema.pattern).test(value)) return false;
  if (schema.format === 'email' && !value.includes('@')) return false;
  return true;
}

function fitNumber(schema: Json, wanted: number): number | typeof FAIL {
  let value = wanted;
  if (schema.minimum !== undefined && value < schema.minimum) value = schema.minimum;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    value = Math.floor(schema.exclusiveMinimum) + 1;
  }
  if (schema.maximum !== undefined && value > schema.maximum) return FAIL;
  return value;
}

/** An id as the schema takes it: a number, its text, or a list holding it. */
function shapeId(schema: Json, id: number | string): Built {
  for (const option of branches(schema)) {
    if (typeOf(option) === 'null') continue;
    const value = shapeId(option, id);
    if (value !== FAIL) return value;
  }
  if (branches(schema).length) return FAIL;
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') {
    return typeof id === 'number' && fitNumber(schema, id) === id ? id : FAIL;
  }
  if (type === 'string') return fitsString(schema, String(id)) ? String(id) : FAIL;
  if (type === 'array' && schema.items) {
    const item = shapeId(schema.items, id);
    return item === FAIL ? FAIL : [item];
  }
  return FAIL;
}

/**
 * The smallest value the schema takes: required properties only, plus whatever `ids` names
 * (keys are reference labels such as `tags[].id`), with `example` filled in first.
 */
function build(
  schema: Json,
  ids: Map<string, number | string>,
  at: Path = [],
  example?: unknown,
): Built {
  const here = label(at);
  const id = ids.get(here);
  if (id !== undefined && at.length) return shapeId(schema, id);
  const options = branches(schema);
  if (options.length) {
    const ordered = [
      ...options.filter((option) => typeOf(option) !== 'null'),
      ...options.filter((option) => typeOf(option) === 'null'),
    ];
    for (const option of ordered) {
      const value = build(option, ids, at, example);
      if (value !== FAIL) return value;
    }
    return FAIL;
  }
  const wanted = (path: Path) => {
    const prefix = label(path);
    return [...ids.keys()].some(
      (key) => key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[]`),
    );
  };
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const type = typeOf(schema);
  switch (type) {
    case 'object': {
      const given = (example && typeof example === 'object' ? example : {}) as Record<
        string,
        unknown
      >;
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const path = [...at, name];
        if (wanted(path)) {
          const built = build(property, ids, path, given[name]);
          if (built === FAIL) return FAIL;
          value[name] = built;
        } else if (name in given) {
          value[name] = given[name];
        } else if (schema.required?.includes(name)) {
          const built = build(property, ids, path);
          if (built === FAIL) return FAIL;
          value[name] = built;
        }
      }
      return value;
    }
    case 'array': {
      const path = [...at, '[]'];
      const count = Math.max(schema.minItems ?? 0, wanted(path) ? 1 : 0);
      const given = Array.isArray(example) ? example : [];
      const items: unknown[] = [];
      for (let index = 0; index < count; index++) {
        const built = build(schema.items ?? {}, ids, path, given[index]);
        if (built === FAIL) return FAIL;
        items.push(built);
      }
      return count === 0 && given.length ? given : items;
    }
    case 'integer':
    case 'number':
      return fitNumber(schema, 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return stringCandidates(at.at(-1) ?? '').find((value) => fitsString(schema, value)) ?? FAIL;
    default:
      return example ?? 'Sweep value';
  }
}

/** Query values as a URL carries them: text, or repeated keys for lists. */
function asQuery(value: unknown): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    query[key] = Array.isArray(item) ? item.map(String) : String(item);
  }
  return query;
}

// ---------------------------------------------------------------------------------------------
// The sweep

/** An id no row has: A's ids must be indistinguishable from it. */
const MISSING_ID = 2_147_483_647;

const idOf = (tenant: Tenant, kind: Kind, world: World): number => {
  switch (kind) {
    case 'company':
      return tenant.companyId;
    case 'plan':
      return tenant.planId;
    case 'help':
      return world.help;
    case 'announcement':
      return world.announcement;
    default:
      return tenant.ids[kind];
  }
};

const routeName = (route: CatalogRoute) => `${route.method} ${route.url}`;

interface Request {
  url: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

interface Reference {
  location: 'body' | 'querystring';
  path: Path;
  id: number;
  /** The same call with an id no row has. */
  twin: Request;
}

interface Call extends Request {
  route: CatalogRoute;
  name: string;
  /** refused: 404/403; reference: as a missing id; leak: anything but A's data. */
  expect: 'refused' | 'reference' | 'leak';
  reference?: Reference;
}

interface Part {
  location: 'body' | 'querystring';
  zod: z.ZodType;
  json: Json;
  refs: { path: Path; kind: Kind }[];
}

/** The body and query of a route, with the references they hold. */
function partsOf(route: CatalogRoute, report: SweepReport): Part[] {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const parts: Part[] = [];
  for (const location of ['body', 'querystring'] as const) {
    const zod = schema[location] as z.ZodType | undefined;
    if (!zod) continue;
    const json = toJson(zod);
    const refs: Part['refs'] = [];
    for (const path of idPaths(json)) {
      const field = label(path);
      const reason = NOT_ROWS[field];
      const kind = kindOf(path, route);
      if (reason) {
        report.notRows.push(`${routeName(route)} ${location}.${field}: ${reason}`);
      } else if (!kind) {
        report.violations.push({
          route: routeName(route),
          case: `${location}.${field}`,
          problem: `the sweep does not know which rows '${field}' names: give it a kind or a NOT_ROWS reason`,
        });
      } else if (GLOBAL_KINDS.has(kind)) {
        report.notRows.push(`${routeName(route)} ${location}.${field}: a platform row (${kind})`);
      } else {
        refs.push({ path, kind });
      }
    }
    parts.push({ location, zod, json, refs });
  }
  return parts;
}

function isRequired(schema: Json, path: Path): boolean {
  let node: Json | undefined = schema;
  for (const segment of path) {
    if (!node) return false;
    const options: Json[] = branches(node).length ? branches(node) : [node];
    if (segment === '[]') {
      node = options.find((option) => option.items)?.items;
      continue;
    }
    const holder = options.find((option) => option.properties?.[segment]);
    if (!holder?.required?.includes(segment)) return false;
    node = holder.properties?.[segment];
  }
  return true;
}

type Kinds = 'public' | 'list' | 'id';
const kindOfRoute = (route: CatalogRoute, namesRows: boolean): Kinds =>
  route.method === 'GET' && !namesRows ? 'list' : route.access === 'public' ? 'public' : 'id';

/** Every call of the sweep for one route. */
function callsFor(
  route: CatalogRoute,
  world: World,
  examples: Record<string, Example>,
  report: SweepReport,
): { calls: Call[]; kind: Kinds } {
  const name = routeName(route);
  const hasParams = route.url.includes(':');
  const pathA = hasParams ? pathFor(route, world.a, world) : route.url;
  const pathB = hasParams ? pathFor(route, world.b, world) : route.url;
  // Parameters that are not ids (a setting's key) are the same for both companies.
  const namesRows = pathA !== pathB;
  const kind = kindOfRoute(route, namesRows);
  const parts = partsOf(route, report);
  const example = examples[name];

  /**
   * Body and query with `tenant`'s ids in the required references (in all of them when the
   * schema wants more than it says, as `ticketId or contactId`) and `extra` on top.
   */
  const valuesWith = (
    tenant: Tenant,
    url: string,
    extra?: { part: Part; path: Path; id: number },
  ): Request | undefined => {
    const request: Request = { url };
    for (const part of parts) {
      let problem = '';
      let done = false;
      for (const everyReference of [false, true]) {
        const ids = new Map<string, number | string>();
        for (const ref of part.refs) {
          if (everyReference || isRequired(part.json, ref.path)) {
            ids.set(label(ref.path), idOf(tenant, ref.kind, world));
          }
        }
        if (extra?.part === part) ids.set(label(extra.path), extra.id);
        const start = part.location === 'body' ? example?.body : example?.query;
        const value = build(part.json, ids, [], start);
        if (value === FAIL) {
          problem = 'the sweep cannot build a value from the schema: add an example';
          continue;
        }
        const sent = part.location === 'querystring' ? asQuery(value) : value;
        const parsed = part.zod.safeParse(sent);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
          problem = `the built ${part.location} is not valid (${issues.join('; ')}): add an example`;
          continue;
        }
        if (part.location === 'body') request.body = value;
        else request.query = sent as Record<string, string | string[]>;
        done = true;
        break;
      }
      if (!done) {
        const field = extra?.part === part ? ` with ${label(extra.path)}` : '';
        report.violations.push({ route: name, case: `${part.location}${field}`, problem });
        return undefined;
      }
    }
    return request;
  };

  const calls: Call[] = [];
  if (namesRows) {
    const request = valuesWith(world.a, pathA);
    const expect = kind === 'public' ? 'leak' : 'refused';
    if (request) calls.push({ route, name: "A's path ids", ...request, expect });
  }
  if (kind === 'list') {
    const request = valuesWith(world.b, pathB);
    if (request) calls.push({ route, name: 'plain', ...request, expect: 'leak' });
  }
  for (const part of parts) {
    for (const ref of part.refs) {
      const id = idOf(world.a, ref.kind, world);
      const request = valuesWith(world.b, pathB, { part, path: ref.path, id });
      if (!request) continue;
      const call: Call = {
        route,
        name: `${part.location}.${label(ref.path)} = A's ${ref.kind}`,
        ...request,
        expect: 'leak',
      };
      if (kind === 'id') {
        const twin = valuesWith(world.b, pathB, { part, path: ref.path, id: MISSING_ID });
        if (!twin) continue;
        call.expect = 'reference';
        call.reference = { location: part.location, path: ref.path, id, twin };
      }
      calls.push(call);
    }
  }
  return { calls, kind };
}

/** The texts of A that must never reach B. */
export function needlesOf(tenant: Tenant): string[] {
  const file = tenant.ids.mediaKey.split('/')[1] ?? tenant.ids.mediaKey;
  return [tenant.marker, ...tenant.secrets, tenant.ids.ticketUuid, tenant.ids.contactNumber, file];
}

/**
 * Walks `options.routes` (every route of `t.app` by default) as company B's admin with company
 * A's ids and returns what went wrong; an empty `violations` list is a pass.
 */
export async function isolationSweep(
  t: TestServer,
  world: World,
  options: SweepOptions = {},
): Promise<SweepReport> {
  const report: SweepReport = {
    idRoutes: [],
    idCases: 0,
    listRoutes: [],
    listCases: 0,
    publicRoutes: [],
    publicCases: 0,
    withoutIds: [],
    answers: [],
    ignored: [],
    notRows: [],
    violations: [],
  };
  const examples = { ...EXAMPLES, ...options.examples };
  const needles = needlesOf(world.a);
  let last = await snapshot(t, world.a.companyId);

  for (const route of options.routes ?? t.app.routeCatalog) {
    const name = routeName(route);
    const { calls, kind } = callsFor(route, world, examples, report);
    if (!calls.length) {
      report.withoutIds.push(name);
      continue;
    }
    if (kind === 'list' && PLATFORM_LISTS[name]) {
      report.notRows.push(`${name}: ${PLATFORM_LISTS[name]}`);
      continue;
    }
    const counted = { id: 'idCases', list: 'listCases', public: 'publicCases' } as const;
    ({ id: report.idRoutes, list: report.listRoutes, public: report.publicRoutes })[kind].push(
      name,
    );
    report[counted[kind]] += calls.length;

    for (const call of calls) {
      const problems: string[] = [];
      const response = await send(t, world, call, call);
      problems.push(...judge(call, response, needles));
      const theirs = response.text.includes(world.b.marker) ? " with B's data" : '';
      report.answers.push(
        `${name} | ${call.name} -> ${response.status}${theirs} ${errorOf(response) ?? ''}`.trim(),
      );
      if (call.reference) {
        const twin = await send(t, world, call, call.reference.twin);
        const verdict = judgeReference(call.reference, response, twin);
        if (verdict === 'ignored') report.ignored.push(`${name} ${call.name.split(' = ')[0]}`);
        else problems.push(...verdict);
      }
      const now = await snapshot(t, world.a.companyId);
      if (now !== last) problems.push(`changed company A's rows (${changedTables(last, now)})`);
      last = now;
      for (const problem of problems)
        report.violations.push({ route: name, case: call.name, problem });
    }
  }
  // Work a call left running (deliveries, events) may land after its own fingerprint.
  const after = await snapshot(t, world.a.companyId);
  if (after !== last) {
    report.violations.push({
      route: '(whole pass)',
      case: 'after the last call',
      problem: `changed company A's rows (${changedTables(last, after)})`,
    });
  }
  return report;
}

function changedTables(before: string, after: string): string {
  const old = new Set(before.split('\n'));
  return after
    .split('\n')
    .filter((line) => !old.has(line))
    .map((line) => line.split(':')[0])
    .join(', ');
}

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

async function send(t: TestServer, world: World, call: Call, request: Request): Promise<Answer> {
  const response = await t.app.inject({
    method: call.route.method as 'GET',
    url: request.url,
    query: request.query,
    headers: { authorization: `Bearer ${world.b.admin.token}` },
    ...(call.route.method === 'GET' || call.route.method === 'DELETE'
      ? {}
      : { payload: (request.body ?? {}) as object }),
  });
  let json: unknown;
  try {
    json = response.json();
  } catch {}
  return { status: response.statusCode, text: response.body, json };
}

const shown = (answer: Answer) => `${answer.status} ${answer.text.slice(0, 200)}`;
const errorOf = (answer: Answer) => {
  const code = (answer.json as { error?: unknown } | undefined)?.error;
  return typeof code === 'string' && code.startsWith('ERR_') ? code : undefined;
};
const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** What every answer must respect, and the refusal of a path naming A's rows. */
function judge(call: Call, answer: Answer, needles: string[]): string[] {
  const problems: string[] = [];
  const leaked = needles.filter((needle) => answer.text.includes(needle));
  if (leaked.length)
    problems.push(`answered company A's data (${leaked.join(', ')}): ${shown(answer)}`);
  if (answer.status === 500) problems.push(`failed: ${shown(answer)}`);
  const refused = answer.status === 404 || answer.status === 403;
  if (call.expect === 'refused' && (!refused || !errorOf(answer))) {
    problems.push(`expected 404 or 403 with an ERR_ code, got ${shown(answer)}`);
  }
  return problems;
}

/** Whether `value` holds `id` under `key`: `{ userId: id }`, `{ tags: [{ id }] }`... */
function carries(value: unknown, key: string, id: number): boolean {
  if (Array.isArray(value)) return value.some((item) => carries(item, key, id));
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const held = record[key];
  const named = (item: unknown) =>
    item === id ||
    (typeof item === 'object' && item !== null && (item as { id?: unknown }).id === id);
  if (named(held) || (Array.isArray(held) && held.some(named))) return true;
  return Object.values(record).some((item) => carries(item, key, id));
}

/** Where an answer would show a reference it took: `quotedMsg.id` as quotedMsg or quotedMsgId. */
function answerKeys(names: string[]): string[] {
  const last = names.at(-1) ?? '';
  const parent = names.at(-2);
  if (last === 'id') return parent ? [parent, `${parent}Id`] : [];
  if (last.endsWith('Ids')) return [last, `${last.slice(0, -3)}s`];
  return [last];
}

/**
 * A's id in a body or query field must act as an id that exists nowhere: refused the same way
 * (404, 403, or 400 naming the field), or ignored the same way (success, A's id not answered).
 */
function judgeReference(reference: Reference, mine: Answer, twin: Answer): string[] | 'ignored' {
  const names = reference.path.filter((segment) => segment !== '[]');
  if (ok(mine)) {
    if (!ok(twin)) {
      return [`accepted A's id, but refuses a missing one with ${shown(twin)}: ${shown(mine)}`];
    }
    const key = answerKeys(names).find((name) => carries(mine.json, name, reference.id));
    if (key) return [`took A's id and answered it under '${key}': ${shown(mine)}`];
    return 'ignored';
  }
  const problems: string[] = [];
  const code = errorOf(mine);
  const fields = ((mine.json as { fields?: { path?: string }[] } | undefined)?.fields ?? []).map(
    (field) => field.path ?? '',
  );
  const top = `${reference.location}.${names[0]}`;
  const namesField = fields.some((path) => path === top || path.startsWith(`${top}.`));
  const refused =
    code && (mine.status === 404 || mine.status === 403 || (mine.status === 400 && namesField));
  if (!refused) {
    problems.push(`expected 404, 403, or 400 naming ${top}, with an ERR_ code; got ${shown(mine)}`);
  }
  if (mine.status !== twin.status || mine.text !== twin.text) {
    problems.push(`answers A's id unlike a missing one: ${shown(mine)} against ${shown(twin)}`);
  }
  return problems;
}
