// Enough of the container-image reference grammar (github.com/distribution
// reference) to know an image's tag: the pull-policy default depends on it.

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])(?::[0-9]+)?`;
const NAME_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${NAME_COMPONENT}(?:/${NAME_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);

export interface ImageReference {
  name: string;
  tag: string;
  digest: string;
}

/**
 * parsers.ParseImageName: the tag ("latest" when neither tag nor digest is
 * given); undefined when the reference does not parse.
 */
export function parseImageName(image: string): ImageReference | undefined {
  const m = REFERENCE_RE.exec(image);
  if (!m) return undefined;
  if (m[1]!.length > 255) return undefined;
  let tag = m[2] ?? '';
  const digest = m[3] ?? '';
  if (!tag && !digest) tag = 'latest';
  return { name: m[1]!, tag, digest };
}

/** SetDefaults_Container's pull policy: Always for :latest (or no tag), else IfNotPresent. */
export function defaultPullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  return parseImageName(image ?? '')?.tag === 'latest' ? 'Always' : 'IfNotPresent';
}
