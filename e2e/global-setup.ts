import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDOFF_MARKER } from '@atendi/shared';
import { FakeAiServices } from '../apps/server/test/fakes/ai-services';
import { FakeAsaas } from '../apps/server/test/fakes/asaas';
import { startFakeSmtp } from '../apps/server/test/fakes/smtp';
import { recreateDatabase } from '../apps/server/test/local';
import { slotOf, WORKERS } from './playwright.config';

const ROOT = join(import.meta.dirname, '..');

/**
 * Starts the real server (API, realtime and the built web app) on a fresh database with the
 * demo data, one per worker slot: the machine's PostgreSQL when DATABASE_URL is set, else an
 * embedded one per slot.
 */
export default async function globalSetup() {
  // The servers' mail goes to a local SMTP server; each message is written to a folder the
  // journeys read (workers inherit E2E_MAILBOX).
  const mailbox = mkdtempSync(join(tmpdir(), 'atendi-e2e-mail-'));
  const smtp = await startFakeSmtp({ user: 'e2e', pass: 'e2e-mail' }, (mail, index) =>
    writeFileSync(join(mailbox, `${String(index).padStart(5, '0')}.json`), JSON.stringify(mail)),
  );
  process.env.E2E_MAILBOX = mailbox;
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

  const slots = await Promise.all(
    Array.from({ length: WORKERS }, (_, slot) =>
      startSlot(slot, { ...smtp.env, OPENAI_BASE_URL: ai.openAiUrl }, new URL(ai.openAiUrl).host),
    ),
  );

  return async () => {
    await Promise.all(slots.map((stop) => stop()));
    await smtp.close();
    await ai.stop();
    rmSync(mailbox, { recursive: true, force: true });
    rmSync(aiCalls, { recursive: true, force: true });
  };
}

/**
 * The server of one worker slot and its payment stand-in (its webhook calls that server);
 * answers how to stop both. Workers read the stand-in's address as E2E_ASAAS_URL_<slot>.
 */
async function startSlot(slot: number, shared: NodeJS.ProcessEnv, aiHost: string) {
  const { apiPort, webPort, database, embeddedPgPort } = slotOf(slot);
  // Pix checkout goes to a local Asaas; the journeys confirm payments through its sandbox call.
  const asaasWebhookToken = 'e2e-asaas-webhook-token-0123456789';
  const asaas = await new FakeAsaas(`$aact_e2e_fake_key_${slot}`, {
    url: `http://127.0.0.1:${apiPort}/subscription/webhook`,
    authToken: asaasWebhookToken,
  }).start();
  process.env[`E2E_ASAAS_URL_${slot}`] = asaas.baseUrl;
  process.env[`E2E_ASAAS_KEY_${slot}`] = asaas.apiKey;
  const env: NodeJS.ProcessEnv = {
    ...shared,
    ...process.env,
    ASAAS_BASE_URL: asaas.baseUrl,
    ASAAS_WEBHOOK_TOKEN: asaasWebhookToken,
    // The outbound guard lets the local stand-ins through, and nothing else of this machine.
    OUTBOUND_ALLOW_PRIVATE: [new URL(asaas.baseUrl).host, aiHost].join(','),
    NODE_ENV: 'development',
    PORT: String(apiPort),
    WEB_PORT: String(webPort),
    HOST: '127.0.0.1',
    DEMO_SEED: 'true',
    LOG_LEVEL: 'warn',
    // The journeys sign in dozens of times a minute from one address; the limit itself is
    // tested against the API (platform/rate-limit.test.ts, auth.test.ts).
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Seven journeys sign a new company up; the limit of five an hour is tested against the API.
    SIGNUP_RATE_LIMIT_PER_HOUR: '100',
    FRONTEND_URL: `http://127.0.0.1:${webPort}`,
    BACKEND_URL: `http://127.0.0.1:${apiPort}`,
  };
  delete env.REDIS_URL;
  let dataDir: string | undefined;
  if (process.env.DATABASE_URL) {
    env.DATABASE_URL = await recreateDatabase(process.env.DATABASE_URL, database);
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'atendi-e2e-'));
    chmodSync(dataDir, 0o755);
    env.DATA_DIR = dataDir;
    env.EMBEDDED_PG_PORT = String(embeddedPgPort);
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
      const response = await fetch(`http://127.0.0.1:${apiPort}/version`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline || server.exitCode !== null) {
      throw new Error(`the server of slot ${slot} did not start for the browser tests`);
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
    await asaas.close();
  };
}
