// Assembly: the authorizer chain and the authenticator chain from the
// configuration, with every dependency passed in. kube-apiserver's order:
// - authorizers: system:masters first, then the configured ones in order;
// - authenticators: request authenticators (client certificate, request
//   header), then tokens — static file, service accounts, bootstrap tokens,
//   JWT/OIDC authenticators, webhook — then anonymous.

import { createAbacAuthorizer, type AbacPolicy } from './authorizer/abac';
import { createNodeAuthorizer, type NodeGraphVertex } from './authorizer/node';
import { createRbacAuthorizer, type RbacAuthorizer } from './authorizer/rbac';
import { createAlwaysAllowAuthorizer, createAlwaysDenyAuthorizer, createPrivilegedGroupsAuthorizer } from './authorizer/simple';
import { createAuthorizerChain, type AuthorizerChain } from './authorizer/union';
import { createWebhookAuthorizer, type WebhookTransport } from './authorizer/webhook';
import { createRequestAuthenticatorChain, type AnonymousConfig, type RequestAuthenticatorChain } from './authn/request-authenticator';
import type { Clock } from '../clock';
import type { AuthorizationConfiguration, Authorizer, RbacSource, RequestAuthenticator, TokenAuthenticator, WebhookAuthorizerConfiguration } from './types';

export interface AuthorizerDeps {
  readonly clock: Clock;
  /** RBAC objects; also used for escalation checks whatever the authorizers. */
  readonly rbacSource: RbacSource;
  /** Parsed --authorization-policy-file, for ABAC. */
  readonly abacPolicies?: readonly AbacPolicy[];
  /** The pod graph for the Node authorizer. */
  readonly isRelatedToNode?: (nodeName: string, vertex: NodeGraphVertex, namespace: string, name: string) => boolean;
  /** A transport per webhook authorizer (URL under Node; URL or in-app rules in the browser). */
  readonly webhookTransport?: (name: string, config: WebhookAuthorizerConfiguration) => WebhookTransport;
}

export interface BuiltAuthorizers {
  readonly chain: AuthorizerChain;
  /** The RBAC rule resolver (escalation checks use it even when RBAC is not in the chain). */
  readonly rbac: RbacAuthorizer;
}

export function buildAuthorizers(config: AuthorizationConfiguration, deps: AuthorizerDeps): BuiltAuthorizers {
  const rbac = createRbacAuthorizer(deps.rbacSource, { name: 'rbac' });
  const list: Authorizer[] = [createPrivilegedGroupsAuthorizer()];
  for (const a of config.authorizers) {
    switch (a.type) {
      case 'AlwaysAllow':
        list.push(createAlwaysAllowAuthorizer(a.name));
        break;
      case 'AlwaysDeny':
        list.push(createAlwaysDenyAuthorizer(a.name));
        break;
      case 'RBAC':
        list.push(a.name === 'rbac' ? rbac : createRbacAuthorizer(deps.rbacSource, { name: a.name }));
        break;
      case 'Node':
        list.push(createNodeAuthorizer({ name: a.name, ...(deps.isRelatedToNode ? { isRelatedToNode: deps.isRelatedToNode } : {}) }));
        break;
      case 'ABAC':
        list.push(createAbacAuthorizer(deps.abacPolicies ?? [], a.name));
        break;
      case 'Webhook': {
        if (!a.webhook || !deps.webhookTransport) throw new Error(`authorizer ${a.name}: no webhook transport configured`);
        list.push(createWebhookAuthorizer({ name: a.name, config: a.webhook, transport: deps.webhookTransport(a.name, a.webhook), clock: deps.clock }));
        break;
      }
      default:
        throw new Error(`unknown authorizer type ${JSON.stringify(a.type)}`);
    }
  }
  return { chain: createAuthorizerChain(list), rbac };
}

export interface AuthenticatorParts {
  readonly requestAuthenticators?: readonly RequestAuthenticator[];
  readonly tokenFile?: TokenAuthenticator;
  readonly serviceAccounts?: TokenAuthenticator;
  readonly bootstrapTokens?: TokenAuthenticator;
  readonly jwt?: readonly TokenAuthenticator[];
  readonly tokenWebhook?: TokenAuthenticator;
  /** --anonymous-auth (default true unless the only authorization mode is AlwaysAllow) or the file's anonymous field. */
  readonly anonymous?: AnonymousConfig;
}

export function buildAuthenticator(parts: AuthenticatorParts): RequestAuthenticatorChain {
  const tokens: TokenAuthenticator[] = [];
  if (parts.tokenFile) tokens.push(parts.tokenFile);
  if (parts.serviceAccounts) tokens.push(parts.serviceAccounts);
  if (parts.bootstrapTokens) tokens.push(parts.bootstrapTokens);
  tokens.push(...(parts.jwt ?? []));
  if (parts.tokenWebhook) tokens.push(parts.tokenWebhook);
  return createRequestAuthenticatorChain({
    requestAuthenticators: parts.requestAuthenticators ?? [],
    tokenAuthenticators: tokens,
    anonymous: parts.anonymous ?? { enabled: true },
  });
}

/**
 * --anonymous-auth's effective value: kube-apiserver turns anonymous off when
 * AlwaysAllow is among the authorization modes ("AnonymousAuth is not allowed
 * with the AlwaysAllow authorizer").
 */
export function effectiveAnonymousAuth(requested: boolean, config: AuthorizationConfiguration): boolean {
  if (!requested) return false;
  return !config.authorizers.some((a) => a.type === 'AlwaysAllow');
}
