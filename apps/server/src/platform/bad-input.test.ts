import { SETTING_KEYS, SETTING_VALUES, SUPER_SETTING_KEYS } from '@atendi/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

/**
 * Generated bad input on the write routes: every answer is a 4xx with an error code, never a 5xx,
 * and nothing is written.
 */

let t: TestServer;
let superToken: string;
let adminToken: string;
let targetUserId: number;
let planId: number;
beforeAll(async () => {
  t = await startTestServer();
  superToken = (await t.login((await t.make.company({ super: true })).admin.email)).token;
  // No limit on queues or users: the properties below create one per run.
  const plan = await t.make.plan({ queues: 0, users: 0 });
  planId = plan.id;
  const { company, admin } = await t.make.company({ planId });
  adminToken = (await t.login(admin.email)).token;
  targetUserId = (await t.make.user(company.id)).id;
  await t.make.queue(company.id);
});
afterAll(() => t.stop());

/** Bounded for the suite; FUZZ_RUNS=1000 for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

async function rowCounts() {
  const { rows } = await t.database.db.execute(sql`select
    (select count(*) from users) as users,
    (select count(*) from companies) as companies,
    (select count(*) from plans) as plans,
    (select count(*) from queues) as queues,
    (select count(*) from settings) as settings,
    (select count(*) from user_queues) as user_queues`);
  return rows[0];
}

let address = 0;
function send(
  method: 'POST' | 'PUT',
  url: string,
  payload: string,
  options: { token?: string; contentType?: string } = {},
): Promise<LightMyRequestResponse> {
  address += 1;
  return t.app.inject({
    method,
    url,
    payload,
    // Each request from its own address, so rate limits answer only where they are meant to.
    remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    headers: {
      'content-type': options.contentType ?? 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

/** A path segment for any string, lone surrogates included (encodeURIComponent throws on them). */
const segment = (text: string) =>
  encodeURIComponent(
    text.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    ),
  );

function expectClientError(response: LightMyRequestResponse, label: string) {
  const context = `${label} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, context).toBeLessThan(500);
  expect(response.json().error, context).toMatch(/^ERR_[A-Z_]+$/);
}

// --- values -------------------------------------------------------------------------------

const HUGE = 100 * 1024;
const hostileStrings = fc.constantFrom(
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  "admin@example.com' --",
  '1; select pg_sleep(5)',
  "%' or '%'='",
  '$1',
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(document.cookie)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
  '../../../../etc/passwd',
  'Ã§Ã£o 😀 👩‍👩‍👧 ﷽ 𝕬',
  '\u202Egnp.exe',
  '\uD800',
  '\u0000',
  'null',
  'undefined',
  'NaN',
);
const hugeStrings = fc
  .constantFrom('a', 'ç', '😀', "'", '%', ' ')
  .map((unit) => unit.repeat(HUGE / unit.length));
const anyString = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  hostileStrings,
);
/** Values of every JSON type, including ones that are never valid for a field. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  anyString,
  hugeStrings,
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e308),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.object({ maxDepth: 2 }),
);

/** A value no string field with bounds [min, max] accepts. */
const badBoundedString = (min: number, max: number) =>
  fc.oneof(
    fc.string({ minLength: max + 1, maxLength: max + 40 }).filter((s) => s.trim().length > max),
    hugeStrings,
    fc.constant(''),
    fc.constant(' '.repeat(Math.max(min, 1))),
    fc.string({ maxLength: Math.max(min - 1, 0) }),
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
  );
/** A value no positive-id field accepts (ids are coerced, so numeric strings are left out). */
const badId = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 'abc', '', '1e400', '0x', '-3', {}, [1, 2], null),
  hostileStrings.filter((s) => !/^\s*\d+\s*$/.test(s)),
);
/**
 * A value no optional id field accepts: the family's clients send `""` and `false` for "none",
 * which the routes read as null, so those two are not bad here.
 */
const badOptionalId = badId.filter((v) => v !== null && v !== '');
/** A value that is not a string. */
const notString = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
/** A string that is not an email. */
const notEmail = fc.oneof(
  fc.string({ maxLength: 60 }).filter((s) => !s.includes('@')),
  hostileStrings.filter((s) => !s.includes('@') || s.includes("'")),
  fc.constant(`${'a'.repeat(HUGE)}@example.com`),
  notString,
);

// --- bodies -------------------------------------------------------------------------------

type Body = Record<string, unknown>;
type Breaker = fc.Arbitrary<(body: Body) => void>;

const set = (field: string, values: fc.Arbitrary<unknown>): Breaker =>
  values.map((value) => (body: Body) => {
    body[field] = value;
  });
const drop = (field: string): Breaker =>
  fc.constant((body: Body) => {
    delete body[field];
  });
/**
 * A field the schema does not know. Schemas drop such fields (the spec's clients send fields of
 * their own), so it is noise on a body another change breaks, never the break itself.
 */
const extra = (known: string[]): Breaker =>
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom('companyId2', 'super', 'id ', 'passwordHash', 'isAdmin', '$where', 'x'),
        fc.string({ minLength: 1, maxLength: 20 }),
      ),
      anyValue,
    )
    .filter(([key]) => !known.includes(key) && key !== '__proto__')
    .map(([key, value]) => (body: Body) => {
      body[key] = value;
    });

/**
 * A body that a schema must refuse: a valid-looking base with noise in its fields, one to three
 * changes each of which alone makes it invalid, and up to two fields the schema does not know
 * (`known` are its fields). Sometimes not an object at all.
 */
function invalidBody(
  base: fc.Arbitrary<Body>,
  breakers: Breaker[],
  known: string[],
): fc.Arbitrary<unknown> {
  const broken = fc
    .tuple(
      base,
      fc.array(fc.oneof(...breakers), { minLength: 1, maxLength: 3 }),
      fc.array(extra(known), { maxLength: 2 }),
    )
    .map(([body, changes, extras]) => {
      const copy = { ...body };
      for (const change of [...extras, ...changes]) change(copy);
      return copy;
    });
  const notAnObject = fc.oneof(
    fc.constant(null),
    fc.array(base, { minLength: 1, maxLength: 2 }),
    fc.integer(),
    fc.boolean(),
    anyString,
  );
  return fc.oneof({ weight: 5, arbitrary: broken }, { weight: 1, arbitrary: notAnObject });
}

const name = fc.oneof(fc.string({ unit: 'grapheme', minLength: 2, maxLength: 30 }), hostileStrings);
const email = fc.emailAddress();

const userBase = fc.record({
  name,
  email,
  password: fc.string({ minLength: 5, maxLength: 50 }),
  profile: fc.constantFrom('admin', 'user'),
  allTicket: fc.constantFrom('enabled', 'desabled'),
});
const USER_FIELDS = [
  'name',
  'email',
  'password',
  'profile',
  'allTicket',
  'whatsappId',
  'queueIds',
  'companyId',
];
const userFieldBreakers = [
  set('name', badBoundedString(2, 50)),
  set('email', notEmail),
  set('password', fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), hugeStrings, notString)),
  set(
    'profile',
    fc.oneof(anyValue.filter((v) => v !== 'admin' && v !== 'user' && v !== undefined)),
  ),
  set(
    'allTicket',
    anyValue.filter((v) => v !== 'enabled' && v !== 'desabled' && v !== undefined),
  ),
  set('whatsappId', badOptionalId),
  set(
    'queueIds',
    fc.oneof(
      badId.filter((v) => !Array.isArray(v) && v !== null),
      fc.array(badId, { minLength: 1, maxLength: 3 }),
      fc.constant(Array.from({ length: 501 }, (_, i) => i + 1)),
    ),
  ),
  set('companyId', fc.constantFrom('abc', 1.5, {}, [1, 2])),
];

const signupBase = fc.record({
  name,
  email,
  phone: fc.constantFrom('(11) 99999-9999', '1133334444'),
  password: fc.string({ minLength: 5, maxLength: 50 }),
  planId: fc.constant(0),
  recurrence: fc.constant('MENSAL'),
  status: fc.constant('t'),
  campaignsEnabled: fc.boolean(),
});
const SIGNUP_FIELDS = [
  'name',
  'email',
  'phone',
  'password',
  'planId',
  'recurrence',
  'dueDate',
  'status',
  'campaignsEnabled',
];

const queueBase = fc.record({
  name,
  color: fc.constantFrom('#fff', '#a1b2c3', 'red'),
  greetingMessage: anyString,
});
const QUEUE_FIELDS = [
  'name',
  'color',
  'greetingMessage',
  'outOfHoursMessage',
  'orderQueue',
  'integrationId',
  'promptId',
  'schedules',
];

/** What PUT /settings/:key reads of its body. */
const SETTING_FIELDS = ['key', 'value'];

const planBase = fc.record({
  name,
  users: fc.nat(100),
  connections: fc.nat(100),
  queues: fc.nat(100),
  value: fc.nat(1000),
  useKanban: fc.boolean(),
});
const PLAN_FIELDS = [
  'name',
  'users',
  'connections',
  'queues',
  'value',
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
];
const badLimit = fc.oneof(
  fc.constantFrom(-1, 1.5, 100_001, 'many', '', {}, [1, 2], '1e400'),
  hostileStrings.filter((s) => Number.isNaN(Number(s)) || Number(s) < 0),
);

/** Runs a property over generated bodies for one route and checks that nothing was written. */
async function fuzz(
  label: string,
  bodies: fc.Arbitrary<unknown>,
  request: (payload: string, body: unknown) => Promise<LightMyRequestResponse>,
) {
  const before = await rowCounts();
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const payload = JSON.stringify(body) ?? 'null';
      expectClientError(await request(payload, body), `${label} ${payload.slice(0, 200)}`);
    }),
    { numRuns: RUNS },
  );
  expect(await rowCounts()).toEqual(before);
}

describe('generated invalid bodies answer 4xx with an error code and write nothing', () => {
  it('POST /users', async () => {
    await fuzz(
      'POST /users',
      invalidBody(
        userBase.map((body) => ({ ...body })),
        [...userFieldBreakers, drop('name'), drop('email'), drop('password')],
        USER_FIELDS,
      ),
      (payload) => send('POST', '/users', payload, { token: adminToken }),
    );
  });

  it('PUT /users/:id', async () => {
    const ids = fc.oneof(
      { weight: 4, arbitrary: fc.constant(() => String(targetUserId)) },
      { weight: 1, arbitrary: badId.map((id) => () => segment(String(id))) },
    );
    const before = await rowCounts();
    const { rows: hashBefore } = await t.database.db.execute(
      sql`select name, email, password_hash, profile from users where id = ${targetUserId}`,
    );
    await fc.assert(
      fc.asyncProperty(
        invalidBody(userBase, userFieldBreakers, USER_FIELDS),
        ids,
        async (body, id) => {
          const payload = JSON.stringify(body) ?? 'null';
          const response = await send('PUT', `/users/${id()}`, payload, { token: adminToken });
          expectClientError(response, `PUT /users/${id()} ${payload.slice(0, 200)}`);
        },
      ),
      { numRuns: RUNS },
    );
    expect(await rowCounts()).toEqual(before);
    const { rows: hashAfter } = await t.database.db.execute(
      sql`select name, email, password_hash, profile from users where id = ${targetUserId}`,
    );
    expect(hashAfter).toEqual(hashBefore);
  });

  it('POST /companies/cadastro', async () => {
    await fuzz(
      'POST /companies/cadastro',
      invalidBody(
        signupBase.map((body) => ({ ...body, planId })),
        [
          set('name', badBoundedString(2, 50)),
          set('email', notEmail),
          set(
            'password',
            fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), hugeStrings, notString),
          ),
          set(
            'phone',
            fc.oneof(
              fc.constantFrom(
                '(11) 99999-99999',
                '123',
                '',
                'call 11 3333 4444',
                '+55 (11) 99999-9999',
              ),
              hugeStrings,
              hostileStrings,
              notString,
            ),
          ),
          set('planId', badId),
          set(
            'recurrence',
            anyValue.filter(
              (v) =>
                !['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'].includes(
                  v as string,
                ) && v !== undefined,
            ),
          ),
          set(
            'dueDate',
            fc.oneof(
              hugeStrings,
              notString.filter((v) => v !== null),
            ),
          ),
          set(
            'campaignsEnabled',
            anyValue.filter((v) => typeof v !== 'boolean' && v !== undefined),
          ),
          drop('name'),
          drop('email'),
          drop('phone'),
          drop('password'),
          drop('planId'),
        ],
        SIGNUP_FIELDS,
      ),
      (payload) => send('POST', '/companies/cadastro', payload),
    );
  });

  it('POST /auth/login', async () => {
    // Shapes the schema refuses, and well-formed ones with hostile content, which are refused
    // as credentials: both are client errors.
    const hostileCredentials = fc.record({
      email: fc.oneof(hostileStrings, fc.string({ unit: 'binary', maxLength: 60 }), email),
      password: fc.oneof(hostileStrings, fc.string({ minLength: 1, maxLength: 200 })),
    });
    await fuzz(
      'POST /auth/login',
      fc.oneof(
        invalidBody(
          fc.record({ email, password: fc.string({ minLength: 1, maxLength: 20 }) }),
          [
            set('email', fc.oneof(notString, hugeStrings, fc.constantFrom('', '   '))),
            set('password', fc.oneof(notString, hugeStrings, fc.constant(''))),
            drop('email'),
            drop('password'),
          ],
          ['email', 'password'],
        ),
        hostileCredentials,
      ),
      (payload) => send('POST', '/auth/login', payload),
    );
  });

  it('POST /queue', async () => {
    await fuzz(
      'POST /queue',
      invalidBody(
        queueBase,
        [
          set('name', badBoundedString(2, 50)),
          set('color', badBoundedString(3, 9)),
          set('greetingMessage', fc.oneof(notString, fc.constant('g'.repeat(10_001)))),
          set('outOfHoursMessage', fc.oneof(notString, hugeStrings)),
          set('orderQueue', fc.constantFrom(-1, 1.5, 10_001, 'first', {}, [1, 2])),
          set('integrationId', badOptionalId),
          set('promptId', badOptionalId),
          set(
            'schedules',
            fc.oneof(
              notString.filter((v) => !Array.isArray(v) && v !== null),
              fc.constant([{ weekday: 'x', weekdayEn: 'funday', startTime: '25:00', endTime: '' }]),
              fc
                .array(anyValue, { minLength: 1, maxLength: 3 })
                .filter((list) =>
                  list.some((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
                ),
            ),
          ),
          drop('name'),
          drop('color'),
        ],
        QUEUE_FIELDS,
      ),
      (payload) => send('POST', '/queue', payload, { token: adminToken }),
    );
  });

  it('PUT /settings/:key', async () => {
    // The keys that take any text up to 500 characters (the original's IXC and MK-AUTH fields):
    // for them a well-formed string is a value, not bad input.
    const freeText = new Set<string>(
      SETTING_KEYS.filter(
        (key) => !SUPER_SETTING_KEYS.includes(key) && SETTING_VALUES[key].safeParse('on').success,
      ),
    );
    expect(freeText.size).toBeGreaterThan(0);
    const keys = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...SETTING_KEYS) },
      {
        weight: 1,
        arbitrary: fc.oneof(hostileStrings, fc.string({ minLength: 1, maxLength: 20 })),
      },
    );
    const values = fc.oneof(
      fc.record({
        value: fc.oneof(
          notString.filter((v) => typeof v !== 'boolean'),
          hugeStrings,
        ),
      }),
      // A value no key takes, with a field the schema drops.
      fc.record({ value: fc.constantFrom('on', 'ENABLED', ' enabled'), extra: anyValue }),
      fc.record({ notValue: anyValue }),
      fc.constantFrom(null, [], 'enabled', 1),
      // Well-formed, with values no key but the payment key (super-only) and the free-text ones
      // accept.
      fc.record({ value: fc.oneof(hostileStrings, fc.constantFrom('on', 'ENABLED', ' enabled')) }),
    );
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(keys, values, async (key, body) => {
        const value =
          typeof body === 'object' && body !== null && 'value' in body ? body.value : undefined;
        fc.pre(!(freeText.has(key) && typeof value === 'string' && value.length <= 500));
        const payload = JSON.stringify(body);
        const url = `/settings/${segment(key)}`;
        const response = await send('PUT', url, payload, { token: adminToken });
        expectClientError(response, `PUT ${url} ${payload.slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts()).toEqual(before);
  });

  it('POST /plans', async () => {
    await fuzz(
      'POST /plans',
      invalidBody(
        planBase,
        [
          set('name', badBoundedString(2, 50)),
          set('users', badLimit),
          set('connections', badLimit),
          set('queues', badLimit),
          set('value', fc.constantFrom(-0.01, 1_000_001, 'free', {}, [1, 2])),
          set(
            'useKanban',
            anyValue.filter((v) => typeof v !== 'boolean' && v !== undefined),
          ),
          drop('name'),
          drop('users'),
          drop('connections'),
          drop('queues'),
          drop('value'),
        ],
        PLAN_FIELDS,
      ),
      (payload) => send('POST', '/plans', payload, { token: superToken }),
    );
  });
});

describe('fields a schema does not know are dropped, never acted on', () => {
  /** Dangerous-looking keys and any other, with any value; none of them is a field. */
  const extras = (known: string[]) =>
    fc
      .dictionary(
        fc.oneof(
          fc.constantFrom('super', 'isSuper', 'passwordHash', 'companyId2', 'tokenHash', 'id '),
          fc.string({ minLength: 1, maxLength: 20 }),
        ),
        anyValue,
        { minKeys: 1, maxKeys: 4 },
      )
      .map((fields) =>
        Object.fromEntries(
          Object.entries(fields).filter(([key]) => !known.includes(key) && key !== '__proto__'),
        ),
      );
  let serial = 0;

  it('POST /users: the user made is the one the known fields describe', async () => {
    await fc.assert(
      fc.asyncProperty(extras(USER_FIELDS), async (fields) => {
        serial += 1;
        const body = {
          ...fields,
          name: `Extra ${serial}`,
          email: `extra${serial}@example.com`,
          password: 'secret-pass',
          profile: 'user',
        };
        const response = await send('POST', '/users', JSON.stringify(body), { token: adminToken });
        expect(response.statusCode, response.body).toBe(201);
        const { rows } = await t.database.db.execute<Record<string, unknown>>(
          sql`select name, email, profile, super, company_id from users where email = ${body.email}`,
        );
        const { rows: admins } = await t.database.db.execute<{ company_id: number }>(
          sql`select company_id from users where id = ${targetUserId}`,
        );
        expect(rows).toEqual([
          {
            name: body.name,
            email: body.email,
            profile: 'user',
            super: false,
            company_id: admins[0]!.company_id,
          },
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /queue and PUT /settings/:key: stored as without the extra fields', async () => {
    await fc.assert(
      // The fields either route knows: the settings body names its key too ({key, value}), and
      // a key that is no text is refused there, as a value that means nothing.
      fc.asyncProperty(extras([...QUEUE_FIELDS, ...SETTING_FIELDS]), async (fields) => {
        serial += 1;
        const body = {
          ...fields,
          name: `Fila extra ${serial}`,
          color: `#${serial.toString(16).padStart(6, '0')}`,
        };
        const response = await send('POST', '/queue', JSON.stringify(body), { token: adminToken });
        expect(response.statusCode, response.body).toBe(201);
        const answer = response.json() as Record<string, unknown>;
        expect(answer).toMatchObject({ name: body.name, color: body.color });
        // Own properties: every object inherits `valueOf` and its kin, which fast-check may name.
        for (const key of Object.keys(fields)) expect(Object.hasOwn(answer, key), key).toBe(false);
        const setting = await send(
          'PUT',
          '/settings/userRating',
          JSON.stringify({ ...fields, value: serial % 2 ? 'enabled' : 'disabled' }),
          { token: adminToken },
        );
        expect(setting.statusCode, setting.body).toBe(200);
        expect(setting.json()).toEqual({
          key: 'userRating',
          value: serial % 2 ? 'enabled' : 'disabled',
        });
      }),
      { numRuns: RUNS },
    );
  });
});

describe('malformed JSON and wrong content types', () => {
  const routes: { method: 'POST' | 'PUT'; url: () => string; token?: () => string }[] = [
    { method: 'POST', url: () => '/users', token: () => adminToken },
    { method: 'PUT', url: () => `/users/${targetUserId}`, token: () => adminToken },
    { method: 'POST', url: () => '/companies/cadastro' },
    { method: 'POST', url: () => '/auth/login' },
    { method: 'POST', url: () => '/queue', token: () => adminToken },
    { method: 'PUT', url: () => '/settings/userRating', token: () => adminToken },
    { method: 'POST', url: () => '/plans', token: () => superToken },
  ];

  it('answers malformed JSON with 400 ERR_INVALID_JSON or ERR_VALIDATION', async () => {
    const malformed = fc.oneof(
      fc.constantFrom(
        '{',
        '{"name":',
        "{'name': 'x'}",
        '{"name": "x",}',
        '[1,',
        'nul',
        'undefined',
        '{"a":1}{"b":2}',
        '\u0000',
        '{"__proto__": {"super": true}, "name": "x"}',
        '{"constructor": {"prototype": {"super": true}}}',
        `{"name": "${'a'.repeat(HUGE)}`,
      ),
      fc.string({ minLength: 1, maxLength: 50 }).filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      }),
    );
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), malformed, async (route, payload) => {
        const response = await send(route.method, route.url(), payload, { token: route.token?.() });
        expectClientError(response, `${route.method} ${route.url()} ${payload.slice(0, 80)}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts()).toEqual(before);
  });

  it('answers a body over the size limit with 413', async () => {
    const response = await send(
      'POST',
      '/companies/cadastro',
      JSON.stringify({
        name: 'x'.repeat(2 * 1024 * 1024),
      }),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('answers other content types with 415 (400 for text/plain) and an error code', async () => {
    const types = fc.constantFrom(
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/octet-stream',
      'text/html; charset=utf-8',
      'image/png',
    );
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), types, async (route, type) => {
        const payload = JSON.stringify({ name: 'Valid Name', email: 'a@b.co', password: 'abcdef' });
        const response = await send(route.method, route.url(), payload, {
          token: route.token?.(),
          contentType: type,
        });
        expectClientError(response, `${route.method} ${route.url()} as ${type}`);
        // text/plain has a parser (the body arrives as a string and fails the schema).
        expect(response.statusCode).toBe(type === 'text/plain' ? 400 : 415);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts()).toEqual(before);
  });
});

describe('text the database cannot store', () => {
  it('is refused with 400, not a 5xx', async () => {
    const before = await rowCounts();
    const probes: [string, string, object, string?][] = [
      [
        'POST',
        '/users',
        { name: 'Nul\u0000 Agent', email: 'nul@example.com', password: 'abcdef' },
        adminToken,
      ],
      ['PUT', `/users/${targetUserId}`, { name: 'Nul\u0000 Agent' }, adminToken],
      ['POST', '/queue', { name: 'Fila', color: '#abc', greetingMessage: 'Olá\u0000' }, adminToken],
      ['POST', '/auth/login', { email: 'nul\u0000@example.com', password: 'abcdef' }],
      [
        'POST',
        '/plans',
        { name: 'Plano\u0000', users: 1, connections: 1, queues: 1, value: 1 },
        superToken,
      ],
    ];
    for (const [method, url, body, token] of probes) {
      const response = await send(method as 'POST' | 'PUT', url, JSON.stringify(body), { token });
      expectClientError(response, `${method} ${url}`);
    }
    const queries = ['/users?searchParam=%00', '/users?pageNumber=1e400'];
    for (const url of queries) {
      const response = await t.as(adminToken).get(url);
      expectClientError(response, `GET ${url}`);
    }
    expect(await rowCounts()).toEqual(before);
  });
});
