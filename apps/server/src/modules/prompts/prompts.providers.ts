/**
 * The outside services a prompt speaks to, each through its real protocol: an OpenAI-compatible
 * API (chat completions and audio transcriptions; any base URL, so a local model server works)
 * and Azure's text-to-speech REST API for the neural voices, each through the one door out
 * (platform/outbound.ts): the key goes to the configured host only. No business rules here.
 */

import {
  type OutboundClient,
  OutboundForm,
  type OutboundRequest,
  type OutboundResponse,
} from '../../platform/outbound';

export class ProviderError extends Error {
  constructor(
    readonly service: string,
    readonly status: number | null,
    detail: string,
  ) {
    super(`${service}: ${detail}`);
    this.name = 'ProviderError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Spoken answers and transcriptions are bounded like any upload (16 MiB). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

async function call(
  outbound: Pick<OutboundClient, 'request'>,
  service: string,
  url: string,
  init: OutboundRequest,
  timeoutMs: number,
): Promise<OutboundResponse> {
  let response: OutboundResponse;
  try {
    response = await outbound.request(url, { ...init, timeoutMs, maxBytes: MAX_ANSWER_BYTES });
  } catch (error) {
    throw new ProviderError(service, null, (error as Error).message);
  }
  if (response.status < 200 || response.status >= 300) {
    throw new ProviderError(service, response.status, `HTTP ${response.status}`);
  }
  return response;
}

const jsonOf = <T>(response: OutboundResponse): T | undefined => {
  try {
    return response.json<T>();
  } catch {
    return undefined;
  }
};

export class OpenAiClient {
  constructor(
    private readonly outbound: Pick<OutboundClient, 'request'>,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * OpenAI's own API refuses every request without a key; a compatible server the operator
   * runs (OPENAI_BASE_URL) may take none.
   */
  get needsKey(): boolean {
    return new URL(this.baseUrl).hostname === 'api.openai.com';
  }

  #headers(apiKey: string): Record<string, string> {
    return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  }

  /** POST /chat/completions: the first choice's text. */
  async complete(request: CompletionRequest): Promise<string> {
    const response = await call(
      this.outbound,
      'chat completions',
      `${trimSlash(this.baseUrl)}/chat/completions`,
      {
        method: 'POST',
        headers: { ...this.#headers(request.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({
          model: request.model,
          messages: request.messages,
          max_tokens: request.maxTokens,
          temperature: request.temperature,
        }),
      },
      this.timeoutMs,
    );
    const data = jsonOf<{ choices?: { message?: { content?: unknown } }[] }>(response);
    const content = data?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') {
      throw new ProviderError('chat completions', response.status, 'no answer in the reply');
    }
    return content;
  }

  /** POST /audio/transcriptions (multipart): the audio's text. */
  async transcribe(
    apiKey: string,
    model: string,
    audio: Buffer,
    mimeType: string,
    fileName: string,
  ): Promise<string> {
    const form = new OutboundForm();
    form.append('model', model);
    form.append('file', new Blob([new Uint8Array(audio)], { type: mimeType }), fileName);
    const response = await call(
      this.outbound,
      'transcriptions',
      `${trimSlash(this.baseUrl)}/audio/transcriptions`,
      { method: 'POST', headers: this.#headers(apiKey), body: form },
      this.timeoutMs,
    );
    const data = jsonOf<{ text?: unknown }>(response);
    if (typeof data?.text !== 'string') {
      throw new ProviderError('transcriptions', response.status, 'no text in the reply');
    }
    return data.text;
  }
}

/** Text to speech, behind one interface so another provider can stand in for Azure. */
export interface SpeechProvider {
  speak(input: { text: string; voice: string; key: string; region: string }): Promise<{
    audio: Buffer;
    mimeType: string;
  }>;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Azure's REST API: SSML in, MP3 out; `{region}` in the URL is the prompt's region. */
export class AzureSpeech implements SpeechProvider {
  constructor(
    private readonly outbound: Pick<OutboundClient, 'request'>,
    private readonly urlTemplate: string,
    private readonly timeoutMs: number,
  ) {}

  async speak({ text, voice, key, region }: Parameters<SpeechProvider['speak']>[0]) {
    if (!/^[a-z0-9-]{1,50}$/i.test(region)) {
      throw new ProviderError('text to speech', null, 'invalid region');
    }
    const url = this.urlTemplate.replace('{region}', region);
    const ssml = `<speak version="1.0" xml:lang="pt-BR"><voice xml:lang="pt-BR" name="${escapeXml(voice)}">${escapeXml(text)}</voice></speak>`;
    const response = await call(
      this.outbound,
      'text to speech',
      url,
      {
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': key,
          'Content-Type': 'application/ssml+xml',
          'X-Microsoft-OutputFormat': 'audio-16khz-32kbitrate-mono-mp3',
          'User-Agent': 'atendi',
        },
        body: ssml,
      },
      this.timeoutMs,
    );
    return { audio: response.bytes, mimeType: 'audio/mpeg' };
  }
}
