/**
 * ADR 0008 "Mail and SMS": every message the gateway sends (one-time passcodes, and the activation
 * and recovery mails of ADR 0009) goes through one Mailer. Message texts carry codes, so nothing
 * here logs them.
 */
export type MessageChannel = 'email' | 'sms';

export interface OutgoingMessage {
  channel: MessageChannel;
  /** An e-mail address, or the phone number as stored. */
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: OutgoingMessage): Promise<void>;
}

/** A message as the development outbox keeps it. */
export interface StoredMessage extends OutgoingMessage {
  id: string;
  sentAt: string;
}

/** The development outbox: what was "sent", readable back by `GET dev-outbox/messages?to=`. */
export interface DevOutbox extends Mailer {
  /** Messages to `to` (case-insensitive), newest first. */
  messagesTo(to: string): Promise<StoredMessage[]>;
}

/** E-mail through `email` (SMTP when configured), SMS always to the outbox: there is no SMS provider. */
export function routeByChannel(email: Mailer, sms: Mailer): Mailer {
  return { send: (message) => (message.channel === 'email' ? email : sms).send(message) };
}
