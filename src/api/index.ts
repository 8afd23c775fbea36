export * from './client';
export * from './errors';
export * from './schemas';
export { parseErrorBody, pointerToField, formatPath, type ParsedErrorBody, type ErrorBodyShape } from './errorBody';
export { parseRetryAfter, parseRateLimit, type RateLimitInfo, type RetryOptions, type RetryPolicy } from './retry';
export type { Timeouts } from './transport';
