// What kube-apiserver keeps in a request's context while serving it and
// reports whatever the outcome: the warning recorder (every warning added by
// decoding, admission or the kind's strategy becomes a `Warning: 299 - "…"`
// header, on an error response as on a success; kube's filter writes them as
// they are added) and the audit annotations admission adds (the
// audit.k8s.io/v1 Event's `annotations`). One record per Request object: the
// pipeline (create-server) reads it when the response is ready, the handlers
// and the admission run write to it.

export class RequestRecord {
  /** Warning texts, first occurrence first, each once (kube's recorder drops duplicates). */
  readonly warnings: string[] = [];
  /** Audit annotations; the first value of a key stays (kube refuses to override one). */
  readonly auditAnnotations: Record<string, string> = {};

  addWarning(message: string): void {
    if (message && !this.warnings.includes(message)) this.warnings.push(message);
  }

  addWarnings(messages: readonly string[]): void {
    for (const m of messages) this.addWarning(m);
  }

  addAuditAnnotation(key: string, value: string): void {
    if (!(key in this.auditAnnotations)) this.auditAnnotations[key] = value;
  }
}

const records = new WeakMap<Request, RequestRecord>();

/** The record of a request, created on first use. */
export function requestRecord(request: Request): RequestRecord {
  let record = records.get(request);
  if (!record) {
    record = new RequestRecord();
    records.set(request, record);
  }
  return record;
}

/** The record of a request if anything was recorded for it. */
export function existingRequestRecord(request: Request): RequestRecord | undefined {
  return records.get(request);
}
