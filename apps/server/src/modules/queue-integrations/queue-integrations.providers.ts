import { createHmac } from 'node:crypto';
import type { IntegrationTestError } from '@atendi/shared';
import { importPKCS8, SignJWT } from 'jose';
import { type OutboundClient, OutboundFailed, OutboundRefused } from '../../platform/outbound';

/**
 * The outside services a queue integration speaks to, each through its real protocol and each
 * through the outbound guard (platform/outbound.ts): a signed JSON post (webhook, n8n), Typebot's
 * v1 chat API (startChat, continueChat) and Dialogflow ES's detectIntent with a service
 * account's OAuth token. No business rules here.
 */

/** A service's failure: its code for the admin, the status it answered, the detail for the log. */
export class IntegrationError extends Error {
  constructor(
    readonly code: IntegrationTestError,
    readonly status: number | null,
    detail: string,
  ) {
    super(detail);
    this.name = 'IntegrationError';
  }

  /** The address was refused by the outbound guard: trying again cannot help. */
  get refused(): boolean {
    return this.code === 'ERR_INTEGRATION_ADDRESS_REFUSED';
  }
}

/** A service answering with an error status. */
const httpError = (status: number, detail: string) =>
  new IntegrationError('ERR_INTEGRATION_HTTP_STATUS', status, detail);
/** A service answering what it should not. */
const badAnswer = (status: number, detail: string) =>
  new IntegrationError('ERR_INTEGRATION_BAD_ANSWER', status, detail);

export interface Transport {
  outbound: Pick<OutboundClient, 'request'>;
  timeoutMs: number;
}

async function send(
  transport: Transport,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; maxRedirects?: number },
) {
  try {
    return await transport.outbound.request(url, { ...init, timeoutMs: transport.timeoutMs });
  } catch (error) {
    if (error instanceof OutboundRefused) {
      throw new IntegrationError('ERR_INTEGRATION_ADDRESS_REFUSED', null, error.message);
    }
    if (error instanceof OutboundFailed) {
      const code =
        error.code === 'ETIMEDOUT' ? 'ERR_INTEGRATION_TIMEOUT' : 'ERR_INTEGRATION_UNREACHABLE';
      throw new IntegrationError(code, null, error.message);
    }
    throw error;
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

// --- signed events (webhook, n8n) -------------------------------------------------------------

/** HMAC-SHA256 over `${timestamp}.${body}`, hex, prefixed as `sha256=`. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface Posted {
  status: number;
  text: string;
}

/** Posts the event; any answer comes back (the caller decides what a status means). */
export async function postSigned(
  transport: Transport,
  url: string,
  secret: string,
  event: string,
  payload: unknown,
  headerNames: { timestamp: string; signature: string; event: string },
  now = new Date(),
): Promise<Posted> {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const response = await send(transport, url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Atendi-Webhooks/1.0',
      [headerNames.timestamp]: timestamp,
      [headerNames.signature]: signature(secret, timestamp, body),
      [headerNames.event]: event,
    },
    body,
    // A receiver's redirect is its answer, logged with the delivery, not a place to post to.
    maxRedirects: 0,
  });
  return { status: response.status, text: response.text.slice(0, 500) };
}

// --- Typebot ----------------------------------------------------------------------------------

interface RichNode {
  text?: string;
  type?: string;
  url?: string;
  children?: RichNode[];
}

interface TypebotBubble {
  type: string;
  content?: {
    richText?: RichNode[];
    markdown?: string;
    url?: string;
    plainText?: string;
  };
}

interface TypebotAnswer {
  sessionId?: string;
  messages?: TypebotBubble[];
  input?: { type: string; items?: { content?: string }[] } | null;
}

export interface TypebotTurn {
  sessionId: string | null;
  /** The bot's bubbles as text (choices listed under the last one). */
  messages: string[];
  /** The flow waits for the contact's answer; without it, the flow ended. */
  waiting: boolean;
}

const flatten = (node: RichNode): string =>
  node.text ?? (node.children ?? []).map(flatten).join('');

function bubbleText(bubble: TypebotBubble): string {
  const content = bubble.content ?? {};
  if (bubble.type === 'text') {
    if (content.richText) return content.richText.map(flatten).join('\n').trim();
    return (content.markdown ?? content.plainText ?? '').trim();
  }
  // Media bubbles are sent as their link.
  return content.url ?? '';
}

function turnOf(answer: TypebotAnswer, sessionId: string | null): TypebotTurn {
  const messages = (answer.messages ?? []).map(bubbleText).filter(Boolean);
  const choices = answer.input?.type === 'choice input' ? (answer.input.items ?? []) : [];
  if (choices.length) {
    messages.push(
      choices.map((item, index) => `${index + 1} - ${item.content ?? ''}`.trim()).join('\n'),
    );
  }
  return { sessionId: answer.sessionId ?? sessionId, messages, waiting: !!answer.input };
}

export class TypebotSessionGone extends IntegrationError {}

export class TypebotClient {
  constructor(private readonly transport: Transport) {}

  async #post(url: string, body: unknown): Promise<TypebotAnswer> {
    const response = await send(this.transport, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status === 404)
      throw new TypebotSessionGone('ERR_INTEGRATION_HTTP_STATUS', 404, 'Typebot: not found');
    if (response.status < 200 || response.status >= 300) {
      throw httpError(response.status, `Typebot: HTTP ${response.status}`);
    }
    try {
      return response.json<TypebotAnswer>();
    } catch {
      throw badAnswer(response.status, 'Typebot: the answer is not JSON');
    }
  }

  /** POST /api/v1/typebots/{publicId}/startChat, with the contact's first message. */
  async start(baseUrl: string, slug: string, text: string, variables: Record<string, string>) {
    const answer = await this.#post(
      `${trimSlash(baseUrl)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`,
      { message: { type: 'text', text }, prefilledVariables: variables },
    );
    if (!answer.sessionId) throw badAnswer(200, 'Typebot: no session in the answer');
    return turnOf(answer, answer.sessionId);
  }

  /** POST /api/v1/sessions/{sessionId}/continueChat. */
  async continue(baseUrl: string, sessionId: string, text: string) {
    const answer = await this.#post(
      `${trimSlash(baseUrl)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
      { message: { type: 'text', text } },
    );
    return turnOf(answer, sessionId);
  }
}

// --- Dialogflow -------------------------------------------------------------------------------

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  token_uri: string;
  project_id?: string;
}

export function parseServiceAccount(json: string): ServiceAccountKey | undefined {
  try {
    const key = JSON.parse(json) as Partial<ServiceAccountKey>;
    if (
      typeof key.client_email === 'string' &&
      typeof key.private_key === 'string' &&
      typeof key.token_uri === 'string'
    ) {
      return key as ServiceAccountKey;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

export interface DetectedIntent {
  intent: string | null;
  messages: string[];
  endInteraction: boolean;
}

const DIALOGFLOW_SCOPE = 'https://www.googleapis.com/auth/dialogflow';

export class DialogflowClient {
  readonly #tokens = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly transport: Transport,
    private readonly apiBaseUrl: string,
  ) {}

  /** An OAuth access token for the key: a JWT signed with its private key, sent to token_uri. */
  async #token(key: ServiceAccountKey): Promise<string> {
    const cached = this.#tokens.get(key.client_email + key.token_uri);
    if (cached && cached.until > Date.now() + 60_000) return cached.token;
    let assertion: string;
    try {
      const privateKey = await importPKCS8(key.private_key, 'RS256');
      assertion = await new SignJWT({ scope: DIALOGFLOW_SCOPE })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(key.client_email)
        .setSubject(key.client_email)
        .setAudience(key.token_uri)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
    } catch {
      throw new IntegrationError(
        'ERR_INTEGRATION_BAD_KEY',
        null,
        'Dialogflow: the service-account key cannot sign',
      );
    }
    const response = await send(this.transport, key.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    });
    if (response.status !== 200) {
      throw httpError(response.status, `Dialogflow token: HTTP ${response.status}`);
    }
    const { access_token, expires_in } = response.json<{
      access_token?: string;
      expires_in?: number;
    }>();
    if (!access_token) throw badAnswer(200, 'Dialogflow token: no access_token');
    this.#tokens.set(key.client_email + key.token_uri, {
      token: access_token,
      until: Date.now() + (expires_in ?? 3600) * 1000,
    });
    return access_token;
  }

  /** POST /v2/projects/{project}/agent/sessions/{session}:detectIntent. */
  async detectIntent(
    key: ServiceAccountKey,
    projectId: string,
    sessionId: string,
    text: string,
    languageCode: string,
  ): Promise<DetectedIntent> {
    const token = await this.#token(key);
    const url = `${trimSlash(this.apiBaseUrl)}/v2/projects/${encodeURIComponent(projectId)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
    const response = await send(this.transport, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ queryInput: { text: { text, languageCode } } }),
    });
    if (response.status !== 200) {
      throw httpError(response.status, `Dialogflow: HTTP ${response.status}`);
    }
    const { queryResult } = response.json<{
      queryResult?: {
        fulfillmentText?: string;
        fulfillmentMessages?: { text?: { text?: string[] } }[];
        intent?: { displayName?: string; endInteraction?: boolean };
      };
    }>();
    const fromMessages = (queryResult?.fulfillmentMessages ?? []).flatMap(
      (message) => message.text?.text ?? [],
    );
    const messages = (
      fromMessages.length ? fromMessages : [queryResult?.fulfillmentText ?? '']
    ).filter((message) => message.trim());
    return {
      intent: queryResult?.intent?.displayName ?? null,
      messages,
      endInteraction: queryResult?.intent?.endInteraction === true,
    };
  }
}
