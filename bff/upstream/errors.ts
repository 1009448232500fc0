/** The upstream API could not give an answer: down, too slow, or answering 5xx. */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'server_error' | 'auth',
    message: string,
  ) {
    super(message);
  }
}
