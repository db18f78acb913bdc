import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDOFF_MARKER } from '@atendi/shared';
import { FakeAiServices } from '../apps/server/test/fakes/ai-services';
import { FakeAsaas } from '../apps/server/test/fakes/asaas';
import { startFakeSmtp } from '../apps/server/test/fakes/smtp';
import { recreateDatabase } from '../apps/server/test/local';
import { API_PORT, E2E_DATABASE, WEB_PORT } from './playwright.config';

const ROOT = join(import.meta.dirname, '..');

/**
 * Starts the real server (API, realtime and the built web app) on a fresh database with the
 * demo data: the machine's PostgreSQL when DATABASE_URL is set, else the embedded one.
 */
export default async function globalSetup() {
  // The server's mail goes to a local SMTP server; each message is written to a folder the
  // journeys read (workers inherit E2E_MAILBOX).
  const mailbox = mkdtempSync(join(tmpdir(), 'atendi-e2e-mail-'));
  const smtp = await startFakeSmtp({ user: 'e2e', pass: 'e2e-mail' }, (mail, index) =>
    writeFileSync(join(mailbox, `${String(index).padStart(5, '0')}.json`), JSON.stringify(mail)),
  );
  process.env.E2E_MAILBOX = mailbox;
  // Pix checkout goes to a local Asaas; the journeys confirm payments through its sandbox call.
  const asaasWebhookToken = 'e2e-asaas-webhook-token-0123456789';
  const asaas = await new FakeAsaas('$aact_e2e_fake_key', {
    url: `http://127.0.0.1:${API_PORT}/subscription/webhook`,
    authToken: asaasWebhookToken,
  }).start();
  process.env.E2E_ASAAS_URL = asaas.baseUrl;
  process.env.E2E_ASAAS_KEY = asaas.apiKey;
  // Prompts answer through a local OpenAI-compatible model: it asks for a person when the
  // contact does, and otherwise answers naming what the contact last wrote. Each request is written to
  // a folder the journeys read (workers inherit E2E_AI_CALLS).
  const aiCalls = mkdtempSync(join(tmpdir(), 'atendi-e2e-ai-'));
  const ai = await new FakeAiServices().start();
  ai.reply = (call) => {
    writeFileSync(
      join(aiCalls, `${String(ai.completions.length).padStart(5, '0')}.json`),
      JSON.stringify(call),
    );
    const asked = call.body.messages.filter((message) => message.role === 'user').at(-1);
    const text = asked?.content ?? '';
    if (/atendente|pessoa/i.test(text)) {
      return `Certo, vou chamar uma pessoa da equipe para continuar. ${HANDOFF_MARKER}`;
    }
    // its last word tells the journeys' answers apart (the whole text would match the question)
    return `Assistente virtual: já verifico isso para você (${text.split(/\s+/).at(-1)}).`;
  };
  process.env.E2E_AI_CALLS = aiCalls;
  const env: NodeJS.ProcessEnv = {
    ...smtp.env,
    ...process.env,
    ASAAS_BASE_URL: asaas.baseUrl,
    ASAAS_WEBHOOK_TOKEN: asaasWebhookToken,
    OPENAI_BASE_URL: ai.openAiUrl,
    // The outbound guard lets the local stand-ins through, and nothing else of this machine.
    OUTBOUND_ALLOW_PRIVATE: [asaas.baseUrl, ai.openAiUrl].map((url) => new URL(url).host).join(','),
    NODE_ENV: 'development',
    PORT: String(API_PORT),
    WEB_PORT: String(WEB_PORT),
    HOST: '127.0.0.1',
    DEMO_SEED: 'true',
    LOG_LEVEL: 'warn',
    // The journeys sign in dozens of times a minute from one address; the limit itself is
    // tested against the API (platform/rate-limit.test.ts, auth.test.ts).
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Seven journeys sign a new company up; the limit of five an hour is tested against the API.
    SIGNUP_RATE_LIMIT_PER_HOUR: '100',
    FRONTEND_URL: `http://127.0.0.1:${WEB_PORT}`,
    BACKEND_URL: `http://127.0.0.1:${API_PORT}`,
  };
  delete env.REDIS_URL;
  let dataDir: string | undefined;
  if (process.env.DATABASE_URL) {
    env.DATABASE_URL = await recreateDatabase(process.env.DATABASE_URL, E2E_DATABASE);
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'atendi-e2e-'));
    chmodSync(dataDir, 0o755);
    env.DATA_DIR = dataDir;
    env.EMBEDDED_PG_PORT = '54366';
  }

  const server: ChildProcess = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${API_PORT}/version`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline || server.exitCode !== null) {
      throw new Error('the server did not start for the browser tests');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  return async () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 2000));
    try {
      process.kill(-server.pid!, 'SIGKILL');
    } catch {}
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await smtp.close();
    await asaas.close();
    await ai.stop();
    rmSync(mailbox, { recursive: true, force: true });
    rmSync(aiCalls, { recursive: true, force: true });
  };
}
