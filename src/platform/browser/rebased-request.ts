// The Request the core sees in the service worker: the fetch event's own
// request with the app's base path taken off its URL (decision 0331).
//
// Building a new Request for that (as before) cost a copy of every header,
// a read of the whole body into an ArrayBuffer and an AbortSignal following
// the original's — for every request, about a tenth of a millisecond of a
// create. Only the URL differs, so everything else is the original's: same
// headers object, same body stream (read once, by whoever reads it first),
// same signal (aborted when the page gives the request up). The method is
// upper-cased: Fetch normalises only its six standard methods, so a page's
// fetch with method 'patch' arrives as 'patch'.

export class RebasedRequest implements Request {
  readonly #original: Request;
  readonly #url: string;

  constructor(original: Request, url: string) {
    this.#original = original;
    this.#url = url;
  }

  get url(): string {
    return this.#url;
  }
  get method(): string {
    return this.#original.method.toUpperCase();
  }
  get headers(): Headers {
    return this.#original.headers;
  }
  get body(): Request['body'] {
    return this.#original.body;
  }
  get bodyUsed(): boolean {
    return this.#original.bodyUsed;
  }
  get signal(): AbortSignal {
    return this.#original.signal;
  }
  get cache(): RequestCache {
    return this.#original.cache;
  }
  get credentials(): RequestCredentials {
    return this.#original.credentials;
  }
  get destination(): RequestDestination {
    return this.#original.destination;
  }
  get integrity(): string {
    return this.#original.integrity;
  }
  get keepalive(): boolean {
    return this.#original.keepalive;
  }
  get mode(): RequestMode {
    return this.#original.mode;
  }
  get redirect(): RequestRedirect {
    return this.#original.redirect;
  }
  get referrer(): string {
    return this.#original.referrer;
  }
  get referrerPolicy(): ReferrerPolicy {
    return this.#original.referrerPolicy;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#original.arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.#original.blob();
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#original.bytes();
  }
  formData(): Promise<FormData> {
    return this.#original.formData();
  }
  json(): Promise<unknown> {
    return this.#original.json();
  }
  text(): Promise<string> {
    return this.#original.text();
  }
  clone(): Request {
    return new RebasedRequest(this.#original.clone(), this.#url);
  }
}
