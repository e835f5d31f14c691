// Image references as containerd and the kubelet read them (the grammar of
// distribution/reference): `nginx` is docker.io/library/nginx:latest,
// `user/app:1.0` is docker.io/user/app:1.0, a first component with a dot, a
// colon or `localhost` names a registry. A reference the grammar refuses is
// the kubelet's InvalidImageName; the message is the one its
// applyDefaultImageTag gives.

import { hexDigest } from '../runtime/hash';

export interface ImageReference {
  /** What the pod spec says. */
  readonly requested: string;
  /** docker.io, registry.k8s.io, … */
  readonly domain: string;
  /** library/nginx, user/app, kube-apiserver, … */
  readonly path: string;
  /** The tag (latest when none and no digest). */
  readonly tag?: string;
  readonly digest?: string;
  /** domain/path:tag (or @digest): what containerStatuses[].image shows. */
  readonly normalized: string;
  /** domain/path: the repository. */
  readonly repository: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?$|^\[[0-9a-fA-F:]+\](?::[0-9]+)?$/;

export class InvalidImageReference extends Error {}

/** Parses and normalizes a reference; throws InvalidImageReference with the kubelet's message. */
export function parseImageReference(requested: string): ImageReference {
  const fail = (detail: string): never => {
    throw new InvalidImageReference(`couldn't parse image name ${JSON.stringify(requested)}: ${detail}`);
  };
  if (requested === '' || requested.length > 255 + 128 + 80) fail('invalid reference format');
  let rest = requested;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) fail('invalid reference format');
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) fail('invalid reference format');
  }
  let domain = 'docker.io';
  let path = rest;
  const firstSlash = rest.indexOf('/');
  if (firstSlash >= 0) {
    const first = rest.slice(0, firstSlash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      domain = first;
      path = rest.slice(firstSlash + 1);
      if (!DOMAIN.test(domain)) fail('invalid reference format');
    }
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  const components = path.split('/');
  if (components.some((c) => c !== c.toLowerCase() && COMPONENT.test(c.toLowerCase()))) {
    fail(`invalid reference format: repository name (${path}) must be lowercase`);
  }
  if (path === '' || !components.every((c) => COMPONENT.test(c))) fail('invalid reference format');
  if (!tag && !digest) tag = 'latest';
  const repository = `${domain}/${path}`;
  const normalized = digest ? `${repository}${tag ? `:${tag}` : ''}@${digest}` : `${repository}:${tag}`;
  return { requested, domain, path, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}), normalized, repository };
}

/** The repository digest containerd reports as imageID: stable for a reference (its tag's "manifest"). */
export function imageDigest(ref: ImageReference): string {
  return ref.digest ?? `sha256:${hexDigest(`manifest:${ref.repository}:${ref.tag ?? 'latest'}`)}`;
}

/** containerStatuses[].imageID: repository@sha256:… */
export function imageID(ref: ImageReference): string {
  return `${ref.repository}@${imageDigest(ref)}`;
}

/**
 * KubeTab's convention for an image that cannot be pulled (there is no
 * registry behind the simulation): the tag `does-not-exist` (or any tag
 * starting with it) is missing from its registry, and the registry
 * `invalid.example` (or any *.invalid host) does not resolve. Everything
 * else pulls.
 */
export function pullFailure(ref: ImageReference): { code: 'NotFound' | 'Unknown'; message: string } | undefined {
  const named = ref.normalized;
  if (ref.domain === 'invalid.example' || ref.domain.endsWith('.invalid') || ref.domain.split(':')[0]!.endsWith('.invalid')) {
    const host = ref.domain.split(':')[0];
    const manifest = `https://${ref.domain}/v2/${ref.path}/manifests/${ref.digest ?? ref.tag ?? 'latest'}`;
    return {
      code: 'Unknown',
      message: `failed to pull and unpack image "${named}": failed to resolve reference "${named}": failed to do request: Head "${manifest}": dial tcp: lookup ${host} on 172.18.0.1:53: no such host`,
    };
  }
  if (ref.tag?.startsWith('does-not-exist')) {
    return {
      code: 'NotFound',
      message: `failed to pull and unpack image "${named}": failed to resolve reference "${named}": ${named}: not found`,
    };
  }
  return undefined;
}
