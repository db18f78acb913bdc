/**
 * The network may have taken the message or not: the call timed out or the link broke after the
 * request went out. A provider that names its messages itself (so a second send is a second
 * message) throws this instead of a plain failure, and the message is not sent again by itself.
 */
export class SendOutcomeUnknownError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SendOutcomeUnknownError';
  }
}
