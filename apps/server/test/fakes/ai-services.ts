import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The AI services for tests, on 127.0.0.1 speaking their real protocols: an OpenAI-compatible
 * API (POST /v1/chat/completions, POST /v1/audio/transcriptions as multipart) and Azure's
 * text-to-speech REST API (POST /{region}/cognitiveservices/v1 with SSML). Each request is
 * recorded; the chat answer comes from `reply`, which a test sets.
 */

export interface CompletionCall {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens: number;
    temperature: number;
  };
}

export interface SpeechCall {
  region: string;
  key: string | undefined;
  format: string | undefined;
  ssml: string;
}

export type Reply = { status: number; text?: string } | string;

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export class FakeAiServices {
  readonly completions: CompletionCall[] = [];
  readonly transcriptions: {
    authorization: string | undefined;
    contentType: string;
    size: number;
  }[] = [];
  readonly speeches: SpeechCall[] = [];
  /** What the next completions answer: the text, or an HTTP error. */
  reply: (call: CompletionCall) => Reply = () => 'Olá! Como posso ajudar?';
  transcript = 'quero saber o horário de funcionamento';
  #server: Server | undefined;
  #port = 0;

  get openAiUrl() {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  get speechUrl() {
    return `http://127.0.0.1:${this.#port}/{region}/cognitiveservices/v1`;
  }

  async start() {
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => json(res, 500, { error: { message: 'fake failed' } }));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const body = await read(req);
    const url = req.url ?? '';
    if (req.method === 'POST' && url === '/v1/chat/completions') {
      const call: CompletionCall = {
        authorization: req.headers.authorization,
        body: JSON.parse(body.toString('utf8')),
      };
      this.completions.push(call);
      const reply = this.reply(call);
      if (typeof reply !== 'string') {
        return json(res, reply.status, { error: { message: 'fake error', type: 'server_error' } });
      }
      return json(res, 200, {
        id: `chatcmpl-${this.completions.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: call.body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    }
    if (req.method === 'POST' && url === '/v1/audio/transcriptions') {
      const contentType = req.headers['content-type'] ?? '';
      if (!contentType.startsWith('multipart/form-data') || !body.includes('name="file"')) {
        return json(res, 400, { error: { message: 'file missing' } });
      }
      this.transcriptions.push({
        authorization: req.headers.authorization,
        contentType,
        size: body.length,
      });
      return json(res, 200, { text: this.transcript });
    }
    const speech = /^\/([a-z0-9-]+)\/cognitiveservices\/v1$/.exec(url);
    if (req.method === 'POST' && speech) {
      const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
      if (!key) return json(res, 401, { error: 'key missing' });
      this.speeches.push({
        region: speech[1]!,
        key,
        format: req.headers['x-microsoft-outputformat'] as string | undefined,
        ssml: body.toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      // An MPEG audio frame header, then silence: enough for a file of the right type.
      return res.end(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(412)]));
    }
    json(res, 404, { error: { message: 'not found' } });
  }
}
