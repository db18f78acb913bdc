import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message as the server received it (headers and body). */
  raw: string;
}

/**
 * A local SMTP server speaking the real protocol: it takes any sender and recipient, checks the
 * login it is given, and keeps each message for the test to read.
 */
export async function startFakeSmtp(
  credentials = { user: 'mailer', pass: 'mail-secret' },
  onMail?: (mail: ReceivedMail, index: number) => void,
) {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        onMail?.(mail, received.length);
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_USER: credentials.user,
      SMTP_PASS: credentials.pass,
      MAIL_FROM: 'Atendi <no-reply@atendi.test>',
    },
    /** The last message to `to`, waiting for it when none came yet. */
    async lastTo(to: string): Promise<ReceivedMail> {
      for (;;) {
        const mail = received.filter((item) => item.to.includes(to)).at(-1);
        if (mail) return mail;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code of a reset mail. */
export const codeOf = (mail: ReceivedMail) =>
  /código para redefinir a senha é: (\d{6})/i.exec(
    mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=C3=A9/g, 'é')
      .replace(/=C3=B3/g, 'ó'),
  )?.[1];
