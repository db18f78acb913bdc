import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the platform's mail. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

interface MailLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/**
 * Mail through the SMTP server the environment names. Without one, nothing can be sent: a
 * development install writes the mail to its log (so the demo can reset a password); any other
 * install logs that it could not send, never the text.
 */
export function createMailer(config: Config, log: MailLog): Mailer {
  if (!config.SMTP_HOST) {
    return {
      async send(mail) {
        if (config.NODE_ENV === 'development') {
          log.info(
            { to: mail.to, subject: mail.subject, text: mail.text },
            'mail (no SMTP_HOST set)',
          );
        } else {
          log.warn({ subject: mail.subject }, 'mail not sent: SMTP_HOST is not set');
        }
      },
    };
  }
  const transport: Transporter = createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: config.MAIL_FROM, ...mail });
    },
  };
}
