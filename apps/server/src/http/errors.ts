import {
  ErrorCode,
  type ErrorCodeName,
  type ErrorEnvelope,
  errorStatus,
  type FieldError,
} from '@btalk/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * An error the API reports to the client as an envelope: `throw new AppError('notFound', 'No such topic')`.
 * Anything else thrown from a handler is a 500 whose details stay in the log.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly kind: ErrorCodeName;
  readonly details: FieldError[] | undefined;

  constructor(kind: ErrorCodeName, message: string, details?: FieldError[]) {
    super(message);
    this.kind = kind;
    this.details = details;
  }

  /** The HTTP status of this error's kind. */
  get status(): number {
    return errorStatus[this.kind];
  }
}

/** A 400 naming one field and the reason. */
export function invalid(field: string, reason: string): AppError {
  return new AppError('validation', `${field}: ${reason}`, [{ field, reason }]);
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { keys?: unknown };
}

const contextName: Record<string, string> = {
  querystring: 'query',
  body: 'body',
  params: 'params',
  headers: 'headers',
};

function fieldErrors(error: FastifyError): FieldError[] {
  const where = contextName[error.validationContext ?? 'body'] ?? 'body';
  return ((error.validation ?? []) as ValidationIssue[]).flatMap((issue) => {
    const path = (issue.instancePath ?? '').split('/').filter(Boolean).join('.');
    const field = path ? `${where}.${path}` : where;
    // A strict object's unknown keys: name each key, not the object that holds it.
    const keys = issue.keyword === 'unrecognized_keys' ? issue.params?.keys : undefined;
    if (Array.isArray(keys) && keys.length > 0) {
      return keys.map((key) => ({
        field: `${field}.${String(key)}`,
        reason: 'is not a known field: remove it',
      }));
    }
    return [{ field, reason: issue.message ?? 'is not valid' }];
  });
}

/**
 * PostgreSQL's SQLSTATEs for a value it cannot read or store (class 22): 22P02 invalid text
 * representation, 22P05 untranslatable character, 22021 character not in repertoire (a NUL in
 * text), 22007 invalid datetime format, 22008 datetime field overflow, 22003 numeric value out of
 * range. They come from what a client sent, so they are a 400, not a 500.
 */
const POSTGRES_BAD_INPUT = new Set(['22P02', '22P05', '22021', '22007', '22008', '22003']);

function send(reply: FastifyReply, status: number, body: ErrorEnvelope): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** Turns what a handler throws into the error envelope, and logs what the client must not see. */
export function errorHandler(
  this: FastifyInstance,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const requestId = request.id;
  if (error instanceof AppError) {
    return send(reply, error.status, {
      code: ErrorCode[error.kind],
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      requestId,
    });
  }
  if (error.validation) {
    const details = fieldErrors(error);
    const message = details.map((d) => `${d.field}: ${d.reason}`).join('; ');
    return send(reply, 400, { code: ErrorCode.validation, message, details, requestId });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(reply, 400, {
        code: ErrorCode.validation,
        message: `body: ${error.message}`,
        details: [{ field: 'body', reason: error.message }],
        requestId,
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(reply, 415, {
        code: ErrorCode.validation,
        message: 'Send the body as application/json (or multipart/form-data where a file is expected).',
        details: [{ field: 'headers.content-type', reason: error.message }],
        requestId,
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return send(reply, 413, {
        code: ErrorCode.tooLarge,
        message: 'The request body is too large.',
        requestId,
      });
  }
  if (POSTGRES_BAD_INPUT.has(String(error.code))) {
    // A safety net: input checks should refuse such values first, naming the field. The database's
    // own message is logged, not sent: it may quote the value.
    request.log.warn({ err: error }, 'the database refused a value of the request');
    return send(reply, 400, {
      code: ErrorCode.validation,
      message: 'A value in the request is not valid text, number or date: check what you sent.',
      requestId,
    });
  }
  if (error.statusCode === 429) {
    return send(reply, 429, { code: ErrorCode.rateLimited, message: error.message, requestId });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // A client error Fastify or a plugin raised that we have no kind for: keep its status.
    return send(reply, error.statusCode, { code: ErrorCode.validation, message: error.message, requestId });
  }
  request.log.error({ err: error }, 'unexpected error');
  return send(reply, 500, {
    code: ErrorCode.internal,
    message: `Something went wrong on the server. Quote request id ${requestId} when reporting it.`,
    requestId,
  });
}
