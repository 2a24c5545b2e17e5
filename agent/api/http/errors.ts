/**
 * The one error type of the API: a status and a message the client may see, plus field errors
 * for 422 (Laravel's shape: {"message": "...", "errors": {"field": ["..."]}}).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static notFound(what = 'Resource'): HttpError {
    return new HttpError(404, `${what} not found.`);
  }

  /** A 422 whose message is the first field error, as Laravel answers. */
  static validation(errors: Record<string, string[]>): HttpError {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    return new HttpError(422, first, errors);
  }

  get body(): { message: string; errors?: Record<string, string[]> } {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}
