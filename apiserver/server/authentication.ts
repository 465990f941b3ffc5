/**
 * Wires authentication from the command line: the request authenticator (client certificates,
 * every token method, anonymous), the token authenticator TokenReview asks, and the handlers of
 * the endpoints that answer from them (TokenReview, SelfSubjectReview, serviceaccounts/token).
 */
import { readFileSync } from 'node:fs';
import type { ApiDomain } from '../api/domain.js';
import type { ObjectGetter, RequestAuthenticator, SecretLabeler, TokenAuthenticator } from '../authentication/interfaces.js';
import { newAuthenticator } from '../authentication/new-authenticator.js';
import { newTokenFileAuthenticator } from '../authentication/token-file.js';
import { parsePublicKeys, type VerificationKey } from '../authentication/service-account-keys.js';
import { newServiceAccountAuthenticator } from '../authentication/service-account-token.js';
import { newTokenIssuer } from '../authentication/service-account-issuer.js';
import { newTokenRequestHandler } from '../authentication/token-request.js';
import { newUnionTokenAuthenticator } from '../authentication/union.js';
import { newTokenReviewHandler, selfSubjectReview } from '../authentication/reviews.js';
import { newRequestHeaderAuthenticator } from '../authentication/request-header.js';
import { newBootstrapTokenAuthenticator } from '../authentication/bootstrap-token.js';
import { newTokenWebhookAuthenticator } from '../authentication/token-webhook.js';
import { newOidcAuthenticator } from '../authentication/oidc.js';
import { type Answer, answerKey } from '../registry/generic/actions.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { ServerOptions } from './options.js';

export interface ServerAuthentication {
  authenticator: RequestAuthenticator;
  /** Every token method in one union (what TokenReview asks). */
  tokens: TokenAuthenticator;
  /** What the never-stored kinds and subresources of authentication answer, by answerKey(). */
  answers: Map<string, Answer>;
}

export function newServerAuthentication(
  options: ServerOptions,
  domain: ApiDomain,
  getObject: ObjectGetter,
  logger: Logger,
  setSecretLabels: SecretLabeler,
): ServerAuthentication {
  const tokens: TokenAuthenticator[] = [];
  const answers = new Map<string, Answer>();
  if (options.tokenAuthFile) tokens.push(newTokenFileAuthenticator(options.tokenAuthFile));

  const signingPem = options.serviceAccountSigningKeyFile ? readFileSync(options.serviceAccountSigningKeyFile, 'utf8') : undefined;
  const keyFiles =
    options.serviceAccountKeyFiles.length > 0
      ? options.serviceAccountKeyFiles
      : options.tlsPrivateKeyFile
        ? [options.tlsPrivateKeyFile]
        : [];
  const keys: VerificationKey[] = keyFiles.flatMap((f) => parsePublicKeys(readFileSync(f, 'utf8'), f));
  if (signingPem) keys.push(...parsePublicKeys(signingPem, options.serviceAccountSigningKeyFile!));
  if (keys.length > 0) {
    tokens.push(
      newServiceAccountAuthenticator({
        issuers: options.serviceAccountIssuers,
        keys,
        apiAudiences: options.apiAudiences,
        lookup: options.serviceAccountLookup,
        getObject,
        extraPrefix: `authentication.${domain.labelPrefix}`,
        legacyTokenTracking: { label: `${domain.labelPrefix}/legacy-token-last-used`, setLabels: setSecretLabels },
      }),
    );
  }
  if (signingPem) {
    const issuer = newTokenIssuer(options.serviceAccountIssuers[0], signingPem, options.serviceAccountSigningKeyFile!);
    answers.set(
      answerKey('', 'serviceaccounts', 'token'),
      newTokenRequestHandler({
        issuer,
        getObject,
        apiAudiences: options.apiAudiences,
        maxExpirationSeconds: options.serviceAccountMaxTokenExpirationSeconds,
        group: domain.group('authentication.k8s.io'),
      }),
    );
  }

  if (options.bootstrapTokenAuth) {
    tokens.push(
      newBootstrapTokenAuthenticator({ getObject, namespace: domain.systemNamespace, secretType: `bootstrap.${domain.labelPrefix}/token` }),
    );
  }
  if (options.oidc) {
    const { caFile, ...oidc } = options.oidc;
    tokens.push(newOidcAuthenticator({ ...oidc, ca: caFile ? readFileSync(caFile, 'utf8') : undefined }));
  }
  // The webhook answers for any token, so it is asked last.
  if (options.tokenWebhook) tokens.push(newTokenWebhookAuthenticator(options.tokenWebhook));

  let anonymous = options.anonymousAuth;
  if (anonymous && options.authorizationModes.includes('AlwaysAllow')) {
    // As kube-apiserver: whoever can reach the port must not be allowed everything.
    logger.warn('anonymous authentication is not allowed with the AlwaysAllow authorizer; --anonymous-auth is reset to false');
    anonymous = false;
  }
  const union = newUnionTokenAuthenticator(tokens);
  const group = domain.group('authentication.k8s.io');
  answers.set(answerKey(group, 'tokenreviews'), newTokenReviewHandler(union));
  answers.set(answerKey(group, 'selfsubjectreviews'), selfSubjectReview);
  return {
    authenticator: newAuthenticator({
      clientCA: options.clientCAFile ? readFileSync(options.clientCAFile, 'utf8') : undefined,
      requestAuthenticators: options.requestHeader
        ? [newRequestHeaderAuthenticator({ ...options.requestHeader, clientCA: readFileSync(options.requestHeader.clientCAFile, 'utf8') })]
        : [],
      tokenAuthenticators: tokens,
      anonymous,
    }),
    tokens: union,
    answers,
  };
}
