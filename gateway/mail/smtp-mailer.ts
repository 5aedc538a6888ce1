import { createTransport } from 'nodemailer';
import type { Mailer } from './mailer';

/** Real e-mail (ADR 0008): nodemailer over SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer & { close(): void } {
  const transport = createTransport(options.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
