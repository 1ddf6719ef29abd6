import type { Transporter } from 'nodemailer'

export interface Mail {
  readonly to: readonly string[]
  readonly subject: string
  readonly text: string
  readonly attachments: readonly { filename: string; contentType: string; content: Buffer | string }[]
}

/** Sends one email; throws when the SMTP server refuses it or cannot be reached. */
export interface Mailer {
  send(mail: Mail): Promise<void>
  close(): void
}

/**
 * SMTP through nodemailer (SMTP_URL: smtp:// upgrades with STARTTLS when the server offers it,
 * smtps:// is TLS from the start). One pooled transport per process; bounded timeouts so that
 * an SMTP server that stops answering fails the send (and it is retried) instead of hanging.
 */
export async function smtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const nodemailer = await import('nodemailer')
  const url = new URL(smtpUrl)
  const transport: Transporter = nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    pool: true,
    maxConnections: 2,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // never log message contents or credentials
    logger: false,
    debug: false,
  })
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: [...mail.to],
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments.map((a) => ({ ...a })),
      })
    },
    close() {
      transport.close()
    },
  }
}
