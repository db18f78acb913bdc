import { createHmac, generateKeyPairSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';

/**
 * The services queue integrations speak to, on 127.0.0.1 speaking their real protocols:
 * - a webhook receiver that checks each post's HMAC-SHA256 signature over `timestamp.body`
 *   and answers the statuses a test lines up (500 first, then 200...);
 * - Typebot's v1 chat API (POST /api/v1/typebots/{publicId}/startChat and
 *   /api/v1/sessions/{sessionId}/continueChat) running a small scripted flow;
 * - Google's OAuth token endpoint (JWT bearer grant, the assertion verified with the
 *   service account's public key) and Dialogflow ES's detectIntent.
 */

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

abstract class LocalServer {
  #server: Server | undefined;
  protected port = 0;

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void>;

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      read(req)
        .then((body) => this.handle(req, res, body))
        .catch((error: Error) => json(res, 500, { message: error.message }));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) =>
      this.#server ? this.#server.close(() => resolve()) : resolve(),
    );
  }
}

// --- webhook receiver -------------------------------------------------------------------------

export interface ReceivedPost {
  path: string;
  event: string | undefined;
  timestamp: string | undefined;
  /** The signature matched the secret the test gave. */
  signed: boolean;
  body: Record<string, unknown>;
  answered: number;
}

export class WebhookReceiver extends LocalServer {
  readonly posts: ReceivedPost[] = [];
  /** Statuses to answer posts of an event, in order; 200 once they run out. */
  statuses: Record<string, number[]> = {};

  constructor(
    public secret: string,
    private readonly headers = {
      timestamp: 'x-atendi-timestamp',
      signature: 'x-atendi-signature',
      event: 'x-atendi-event',
    },
  ) {
    super();
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const timestamp = req.headers[this.headers.timestamp] as string | undefined;
    const given = String(req.headers[this.headers.signature] ?? '');
    const expected = `sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex')}`;
    const signed =
      given.length === expected.length &&
      timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    // A receiver refuses posts signed too long ago (replays).
    const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
    const status =
      !signed || !fresh
        ? 401
        : (this.statuses[String(req.headers[this.headers.event])]?.shift() ?? 200);
    this.posts.push({
      path: req.url ?? '',
      event: req.headers[this.headers.event] as string | undefined,
      timestamp,
      signed: signed && fresh,
      body: JSON.parse(body || '{}') as Record<string, unknown>,
      answered: status,
    });
    json(res, status, { received: status === 200 });
  }
}

// --- Typebot ----------------------------------------------------------------------------------

const bubble = (text: string) => ({
  id: randomUUID(),
  type: 'text',
  content: { type: 'richText', richText: [{ type: 'p', children: [{ text }] }] },
});

export interface TypebotCall {
  kind: 'start' | 'continue';
  publicId?: string;
  sessionId?: string;
  text: string;
  prefilledVariables?: Record<string, string>;
}

/**
 * A flow of three steps: a greeting with a choice (1 - Vendas, 2 - Suporte), then the name,
 * then a goodbye that ends the flow. An answer that is not a choice gets no bubbles (Typebot
 * keeps waiting on the same input).
 */
export class FakeTypebot extends LocalServer {
  readonly calls: TypebotCall[] = [];
  readonly sessions = new Map<string, number>();
  publicId = 'atendimento-bot';

  protected async handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = req.url ?? '';
    const parsed = JSON.parse(body || '{}') as {
      message?: { type: string; text: string } | string;
      prefilledVariables?: Record<string, string>;
    };
    const text = typeof parsed.message === 'string' ? parsed.message : (parsed.message?.text ?? '');
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(url);
    if (req.method === 'POST' && start) {
      this.calls.push({
        kind: 'start',
        publicId: start[1],
        text,
        prefilledVariables: parsed.prefilledVariables,
      });
      if (start[1] !== this.publicId) return json(res, 404, { message: 'Typebot not found' });
      const sessionId = randomUUID();
      this.sessions.set(sessionId, 1);
      return json(res, 200, {
        sessionId,
        resultId: randomUUID(),
        typebot: { id: 'tb1', theme: {}, settings: {} },
        messages: [
          bubble(`Olá ${parsed.prefilledVariables?.pushName ?? ''}! Bem-vindo.`.replace(' !', '!')),
          bubble('Escolha um setor:'),
        ],
        input: {
          id: 'choice',
          type: 'choice input',
          items: [
            { id: 'a', content: 'Vendas' },
            { id: 'b', content: 'Suporte' },
          ],
        },
      });
    }
    const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(url);
    if (req.method === 'POST' && next) {
      const sessionId = decodeURIComponent(next[1]!);
      this.calls.push({ kind: 'continue', sessionId, text });
      const step = this.sessions.get(sessionId);
      if (!step) return json(res, 404, { message: 'Session not found.' });
      if (step === 1) {
        const choice = { '1': 'Vendas', '2': 'Suporte', vendas: 'Vendas', suporte: 'Suporte' }[
          text.trim().toLowerCase()
        ];
        if (!choice)
          return json(res, 200, {
            messages: [],
            input: { id: 'choice', type: 'choice input', items: [] },
          });
        this.sessions.set(sessionId, 2);
        return json(res, 200, {
          messages: [bubble(`Você escolheu ${choice}. Qual é o seu nome?`)],
          input: { id: 'name', type: 'text input' },
        });
      }
      this.sessions.delete(sessionId);
      return json(res, 200, { messages: [bubble(`Obrigado, ${text.trim()}! Até logo.`)] });
    }
    json(res, 404, { message: 'Not found' });
  }
}

// --- Google OAuth and Dialogflow --------------------------------------------------------------

/** A service-account key as Google issues it, for a token URL of the test's choosing. */
export function serviceAccountKey(tokenUri: string, projectId = 'atendi-test') {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomUUID().replace(/-/g, ''),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: `bot@${projectId}.iam.gserviceaccount.com`,
    client_id: '123456789',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  };
  return {
    json: JSON.stringify(key),
    key,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface DetectCall {
  projectId: string;
  sessionId: string;
  text: string;
  languageCode: string;
  authorization: string | undefined;
}

/** Intents by the words they hear; anything else is the fallback intent. */
const INTENTS: { words: RegExp; name: string; answers: Record<string, string>; end?: boolean }[] = [
  {
    words: /horário|horario|hours|horario de/i,
    name: 'horario',
    answers: {
      'pt-BR': 'Funcionamos de segunda a sexta, das 8h às 18h.',
      en: 'We are open Monday to Friday, 8am to 6pm.',
      es: 'Abrimos de lunes a viernes, de 8 a 18 h.',
    },
  },
  {
    words: /tchau|bye|adiós|adios/i,
    name: 'despedida',
    answers: { 'pt-BR': 'Até logo!', en: 'Goodbye!', es: '¡Hasta luego!' },
    end: true,
  },
];

export class FakeDialogflow extends LocalServer {
  readonly detects: DetectCall[] = [];
  readonly tokenRequests: { email: string; scope: string }[] = [];
  /** Public keys of the service accounts allowed, by their email. */
  readonly accounts = new Map<string, string>();
  readonly #tokens = new Set<string>();

  get tokenUrl() {
    return `${this.url}/token`;
  }

  allow(email: string, publicKeyPem: string) {
    this.accounts.set(email, publicKeyPem);
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = req.url ?? '';
    if (req.method === 'POST' && url === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      const assertion = form.get('assertion') ?? '';
      const [, claims] = assertion.split('.');
      const email =
        (JSON.parse(Buffer.from(claims ?? '', 'base64url').toString() || '{}') as { iss?: string })
          .iss ?? '';
      const pem = this.accounts.get(email);
      if (!pem) return json(res, 400, { error: 'invalid_grant' });
      try {
        const { payload } = await jwtVerify(assertion, await importSPKI(pem, 'RS256'), {
          issuer: email,
          audience: this.tokenUrl,
        });
        this.tokenRequests.push({ email, scope: String(payload.scope) });
      } catch {
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'Invalid JWT Signature.',
        });
      }
      const token = `ya29.${randomUUID()}`;
      this.#tokens.add(token);
      return json(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const detect = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(url);
    if (req.method === 'POST' && detect) {
      const authorization = req.headers.authorization;
      if (!authorization || !this.#tokens.has(authorization.replace(/^Bearer /, ''))) {
        return json(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      }
      const { queryInput } = JSON.parse(body) as {
        queryInput: { text: { text: string; languageCode: string } };
      };
      const { text, languageCode } = queryInput.text;
      this.detects.push({
        projectId: decodeURIComponent(detect[1]!),
        sessionId: decodeURIComponent(detect[2]!),
        text,
        languageCode,
        authorization,
      });
      const intent = INTENTS.find((candidate) => candidate.words.test(text));
      const fallback: Record<string, string> = {
        'pt-BR': 'Desculpe, não entendi.',
        en: 'Sorry, I did not understand.',
        es: 'Lo siento, no entendí.',
      };
      const answer = intent ? intent.answers[languageCode] : fallback[languageCode];
      return json(res, 200, {
        responseId: randomUUID(),
        queryResult: {
          queryText: text,
          languageCode,
          fulfillmentText: answer ?? '',
          fulfillmentMessages: [{ text: { text: [answer ?? ''] } }],
          intent: {
            name: `projects/${detect[1]}/agent/intents/${intent?.name ?? 'fallback'}`,
            displayName: intent?.name ?? 'Default Fallback Intent',
            ...(intent?.end ? { endInteraction: true } : {}),
          },
          intentDetectionConfidence: intent ? 0.9 : 1,
        },
      });
    }
    json(res, 404, { error: { code: 404, status: 'NOT_FOUND' } });
  }
}
