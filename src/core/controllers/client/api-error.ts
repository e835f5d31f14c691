// A failed API call as the controllers see it: the HTTP code and the
// metav1.Status reason of the answer, so that reconcilers can branch on
// NotFound, Conflict, AlreadyExists and MethodNotSupported as kube's
// apimachinery errors.IsXxx helpers do.

export interface StatusBody {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: StatusBody | undefined;
  constructor(code: number, status: StatusBody | undefined, fallback: string) {
    super(status?.message ?? fallback);
    this.name = 'ApiError';
    this.code = code;
    this.reason = status?.reason ?? '';
    this.status = status;
  }
}

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.code === 404;
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.code === 409 && err.reason !== 'AlreadyExists';
export const isAlreadyExists = (err: unknown): boolean => err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists';
export const isGone = (err: unknown): boolean => err instanceof ApiError && err.code === 410;
export const isMethodNotSupported = (err: unknown): boolean => err instanceof ApiError && err.code === 405;
export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.code === 403;

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
