// Name and identifier checks with k8s.io/apimachinery's messages
// (util/validation): each check returns the list of problems, empty when the
// value is fine, so a caller can wrap each one in a field error.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const C_IDENTIFIER_FMT = '[A-Za-z_][A-Za-z0-9_]*';
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';

const anchored = (fmt: string) => new RegExp(`^${fmt}$`);
const DNS1123_LABEL_RE = anchored(DNS1123_LABEL_FMT);
const DNS1123_SUBDOMAIN_RE = anchored(DNS1123_SUBDOMAIN_FMT);
const DNS1035_LABEL_RE = anchored(DNS1035_LABEL_FMT);
const QUALIFIED_NAME_RE = anchored(QUALIFIED_NAME_FMT);
const LABEL_VALUE_RE = anchored(LABEL_VALUE_FMT);
const C_IDENTIFIER_RE = anchored(C_IDENTIFIER_FMT);
const ENV_VAR_NAME_RE = anchored(ENV_VAR_NAME_FMT);
const CONFIG_MAP_KEY_RE = anchored(CONFIG_MAP_KEY_FMT);

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;
export const QUALIFIED_NAME_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

/** The "(e.g. 'a',  or 'b', regex used for validation is '…')" suffix, with its odd double space. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export const DNS1123_LABEL_ERROR = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  DNS1123_LABEL_FMT,
  'my-name',
  '123-abc',
);
export const DNS1123_SUBDOMAIN_ERROR = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN_FMT,
  'example.com',
);
export const DNS1035_LABEL_ERROR = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FMT,
  'my-name',
  'abc-123',
);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) errs.push(DNS1123_LABEL_ERROR);
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(DNS1123_SUBDOMAIN_ERROR);
  return errs;
}

const WILDCARD_DNS1123_SUBDOMAIN_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_DNS1123_SUBDOMAIN_RE = new RegExp(`^${WILDCARD_DNS1123_SUBDOMAIN_FMT}$`);
const WILDCARD_DNS1123_SUBDOMAIN_ERROR = regexError(
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
  WILDCARD_DNS1123_SUBDOMAIN_FMT,
  '*.example.com',
);

/** validation.IsWildcardDNS1123Subdomain: "*." then a DNS-1123 subdomain. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!WILDCARD_DNS1123_SUBDOMAIN_RE.test(value)) errs.push(WILDCARD_DNS1123_SUBDOMAIN_ERROR);
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(DNS1035_LABEL_ERROR);
  return errs;
}

const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** A label key, annotation key or finalizer: an optional DNS-subdomain prefix and a name part. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

export function emptyError(): string {
  return 'must be non-empty';
}

/** Names that are one URL path segment (RBAC objects, …): ValidatePathSegmentName. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

export function isCIdentifier(value: string): string[] {
  if (C_IDENTIFIER_RE.test(value)) return [];
  return [regexError("a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'", C_IDENTIFIER_FMT, 'my_name', 'MY_NAME', 'MyName')];
}

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME_RE.test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        ENV_VAR_NAME_FMT,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!CONFIG_MAP_KEY_RE.test(value)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return [`must not be '.'`];
  if (value === '..') return [`must not be '..'`];
  if (value.startsWith('..')) return [`must not start with '..'`];
  return [];
}

export function isValidPortNum(port: number): string[] {
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return [];
  return [inclusiveRangeError(1, 65535)];
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const IANA_SVC_NAME_FMT = '[-a-z0-9]+';
const IANA_SVC_NAME_RE = anchored(IANA_SVC_NAME_FMT);
const ONE_LETTER = /[a-z]/;

/** A named port (IANA_SVC_NAME, RFC 6335). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!IANA_SVC_NAME_RE.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!ONE_LETTER.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push("must not contain consecutive hyphens (-)");
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen (-)');
  return errs;
}

/**
 * A name check as the API machinery's ValidateNameFunc: `prefix` is true for
 * generateName, where a trailing '-' is allowed (it is dropped before the check).
 */
export type NameValidator = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
/** RBAC and other names that only have to be a path segment. */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  // ValidatePathSegmentName only checks the full name for '.'/'..' when not a prefix.
  if (prefix) {
    const errs: string[] = [];
    for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
    return errs;
  }
  return isValidPathSegmentName(name);
};
