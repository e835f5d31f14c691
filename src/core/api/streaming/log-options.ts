// PodLogOptions from a pods/log query, decoded as kube's parameter codec does
// (booleans: anything but "0"/"false" is true; integers: strconv.ParseInt;
// sinceTime: RFC 3339) and validated as ValidatePodLogOptions does, with its
// 422 `PodLogOptions "<pod>" is invalid: …`.

import { errors } from '../../errors/status';
import { fieldErrors, type FieldError } from '../../errors/field-errors';
import { queryBool } from '../query-bool';

export interface PodLogQuery {
  readonly container: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly sinceSeconds?: number;
  /** ms since the epoch. */
  readonly sinceTimeMs?: number;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  readonly insecureSkipTLSVerifyBackend: boolean;
  readonly stream?: string;
}

function int64Param(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return n;
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z. */
const ZERO_TIME_MS = -62135596800000;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** metav1.Time's query form: RFC 3339 (Go's parser also takes a fraction of a second); "" and "null" are the zero time. */
function timeParam(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (value === '' || value === 'null') return ZERO_TIME_MS;
  const m = RFC3339.exec(value);
  const ms = m ? Date.parse(value) : NaN;
  if (!m || Number.isNaN(ms)) {
    throw errors.badRequest(`parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"`);
  }
  return ms;
}

export function parsePodLogQuery(query: URLSearchParams): PodLogQuery {
  const sinceSeconds = int64Param(query, 'sinceSeconds');
  const sinceTimeMs = timeParam(query, 'sinceTime');
  const tailLines = int64Param(query, 'tailLines');
  const limitBytes = int64Param(query, 'limitBytes');
  const stream = query.get('stream');
  return {
    container: query.get('container') ?? '',
    follow: queryBool(query.get('follow')) ?? false,
    previous: queryBool(query.get('previous')) ?? false,
    timestamps: queryBool(query.get('timestamps')) ?? false,
    insecureSkipTLSVerifyBackend: queryBool(query.get('insecureSkipTLSVerifyBackend')) ?? false,
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTimeMs !== undefined ? { sinceTimeMs } : {}),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    ...(stream !== null ? { stream } : {}),
  };
}

/** ValidatePodLogOptions (PodLogsQuerySplitStreams, alpha in 1.32, off: `stream` may not be given). */
export function validatePodLogQuery(options: PodLogQuery, podName: string, streamSelection: boolean): void {
  const errs: FieldError[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0) {
    errs.push(fieldErrors.invalid('tailLines', options.tailLines, 'must be greater than or equal to 0'));
  }
  if (options.limitBytes !== undefined && options.limitBytes < 1) {
    errs.push(fieldErrors.invalid('limitBytes', options.limitBytes, 'must be greater than 0'));
  }
  if (options.sinceSeconds !== undefined && options.sinceTimeMs !== undefined) {
    errs.push(fieldErrors.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    errs.push(fieldErrors.invalid('sinceSeconds', options.sinceSeconds, 'must be greater than 0'));
  }
  if (options.stream !== undefined) {
    if (!streamSelection) errs.push(fieldErrors.forbidden('stream', 'may not be specified'));
    else if (!['All', 'Stdout', 'Stderr'].includes(options.stream)) errs.push(fieldErrors.notSupported('stream', options.stream, ['All', 'Stderr', 'Stdout']));
    else if (options.stream !== 'All' && options.tailLines !== undefined) errs.push(fieldErrors.forbidden('', '`tailLines` and specific `stream` are mutually exclusive for now'));
  }
  if (errs.length) throw errors.invalid({ group: '', kind: 'PodLogOptions' }, podName, errs);
}
