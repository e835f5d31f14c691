// Warning headers (RFC 7234 §5.5, as Kubernetes sends them):
// `299 - "unknown field \"bogus\""`. fetch joins repeated headers with ", ",
// so one header value may hold several warnings.

export interface Warning {
  readonly code: number;
  readonly agent: string;
  readonly text: string;
}

const WARNING = /(\d{3})\s+(\S+)\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?/g;

export function parseWarnings(header: string | null): Warning[] {
  if (!header) return [];
  const out: Warning[] = [];
  for (const match of header.matchAll(WARNING)) {
    out.push({ code: Number(match[1]), agent: match[2]!, text: match[3]!.replace(/\\(.)/g, '$1') });
  }
  return out;
}
