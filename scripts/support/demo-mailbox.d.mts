// The types of demo-mailbox.mjs, for the tests that start it.

/** One caught message, as /messages.json gives it. */
export interface MailboxMessage {
  id: number;
  received_at: string;
  /** The SMTP envelope: MAIL FROM and every RCPT TO. */
  envelope: { from: string | null; to: string[] };
  subject: string | null;
  from: string | null;
  to: string | null;
  cc: string | null;
  reply_to: string | null;
  /** The Date header, ISO 8601. */
  date: string | null;
  message_id: string | null;
  /** The plain-text part; null when the e-mail has none. */
  text: string | null;
  /** The HTML part; null when the e-mail has none. */
  html: string | null;
  attachments: { filename: string | null; content_type: string; size: number }[];
}

export interface MailboxOptions {
  /** 0 (the default): any free port. */
  smtpPort?: number;
  /** 0 (the default): any free port. */
  httpPort?: number;
  /** How many messages are kept, newest first (50). */
  keep?: number;
  /** The largest message taken, in bytes (1 MiB); a larger one is refused with 552. */
  maxMessageBytes?: number;
  /** The demo page, linked from the page. */
  demoUrl?: string;
  /** The clinic's address, named on the page. */
  address?: string;
}

export interface Mailbox {
  smtpPort: number;
  httpPort: number;
  /** The page, at 127.0.0.1. */
  url: string;
  /** What is kept, newest first. */
  messages(): MailboxMessage[];
  close(): Promise<void>;
}

export function startMailbox(options?: MailboxOptions): Promise<Mailbox>;
