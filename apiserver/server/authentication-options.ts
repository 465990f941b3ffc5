/**
 * kube-apiserver's authentication flags (its BuiltInAuthenticationOptions): client certificates,
 * static tokens, anonymous requests, service-account tokens, the authenticating proxy's request
 * headers, bootstrap tokens, the token webhook and OIDC.
 */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../component-base/flag/flag-table.js';
import { boolValue, durationValue, stringsValue, stringValue } from '../component-base/flag/values.js';
import { OptionsError } from '../component-base/flag/options-error.js';

/** What the authentication flags complete into (fields of ServerOptions). */
export interface AuthenticationSettings {
  /** --client-ca-file: enables x509 client-certificate authentication. */
  clientCAFile?: string;
  /** --token-auth-file: enables static bearer-token authentication. */
  tokenAuthFile?: string;
  /** --anonymous-auth. */
  anonymousAuth: boolean;
  /** --service-account-issuer (repeatable): the first signs new tokens; tokens of any are accepted. */
  serviceAccountIssuers: string[];
  /** --service-account-signing-key-file: private key (PEM) that signs TokenRequest tokens; enables serviceaccounts/token. */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-key-file (repeatable): PEM files of public or private RSA/ECDSA keys that verify tokens; none: the TLS key. */
  serviceAccountKeyFiles: string[];
  /** --service-account-lookup: legacy tokens are checked against their Secret and account in storage. */
  serviceAccountLookup: boolean;
  /** --api-audiences: audiences of the API; none: the issuers. */
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds; 0 = no maximum. */
  serviceAccountMaxTokenExpirationSeconds: number;
  /** --requestheader-*: the authenticating proxy; set when --requestheader-client-ca-file is. */
  requestHeader?: {
    clientCAFile: string;
    usernameHeaders: string[];
    groupHeaders: string[];
    extraHeaderPrefixes: string[];
    allowedNames: string[];
  };
  /** --enable-bootstrap-token-auth. */
  bootstrapTokenAuth: boolean;
  /** --authentication-token-webhook-*: set when the config file is given. */
  tokenWebhook?: { configFile: string; version: 'v1' | 'v1beta1'; cacheTtlMs: number };
  /** --oidc-*: set when --oidc-issuer-url is given. */
  oidc?: {
    issuerURL: string;
    clientID: string;
    caFile?: string;
    usernameClaim: string;
    usernamePrefix?: string;
    groupsClaim?: string;
    groupsPrefix?: string;
    requiredClaims: Record<string, string>;
    signingAlgs: string[];
  };
}

const OIDC_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

/** The authentication flags, each declared once. */
export const AUTHENTICATION_FLAGS = {
  clientCAFile: flag({
    name: 'client-ca-file',
    type: stringValue,
    default: '',
    usage:
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    doc: 'Enables client-certificate authentication: user = CN, groups = O',
  }),
  tokenAuthFile: flag({
    name: 'token-auth-file',
    type: stringValue,
    default: '',
    usage: 'If set, the file that will be used to secure the secure port of the API server via token authentication.',
    doc: 'Enables static bearer tokens: CSV `token,user,uid,"group1,group2"`',
  }),
  anonymousAuth: flag({
    name: 'anonymous-auth',
    type: boolValue,
    default: true,
    usage:
      'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    doc: 'Requests without credentials are `system:anonymous` (group `system:unauthenticated`); always off under `AlwaysAllow`',
  }),
  serviceAccountIssuers: flag({
    name: 'service-account-issuer',
    type: stringsValue,
    default: [],
    usage:
      'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.',
    doc: 'Issuer of service-account tokens (repeatable: the first signs, all are accepted)',
  }),
  serviceAccountSigningKeyFile: flag({
    name: 'service-account-signing-key-file',
    type: stringValue,
    default: '',
    usage:
      'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key.',
    doc: 'Private key (RSA or ECDSA PEM) signing TokenRequest tokens; enables `serviceaccounts/<name>/token`',
  }),
  serviceAccountKeyFiles: flag({
    name: 'service-account-key-file',
    type: stringsValue,
    default: [],
    usage:
      'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file is used.',
    doc: 'Public or private PEM keys verifying service-account tokens (repeatable)',
    defaultDoc: '`--tls-private-key-file`',
  }),
  serviceAccountLookup: flag({
    name: 'service-account-lookup',
    type: boolValue,
    default: true,
    usage: 'If true, validate ServiceAccount tokens exist in storage as part of authentication.',
    doc: 'Legacy token Secrets must still exist and hold the token',
  }),
  apiAudiences: flag({
    name: 'api-audiences',
    type: stringsValue,
    default: [],
    usage:
      'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If --service-account-issuer is configured and this flag is not, this field defaults to a single element list containing the issuer URL.',
    doc: 'Audiences a bound token must name one of',
    defaultDoc: 'the issuers',
  }),
  serviceAccountMaxTokenExpirationMs: flag({
    name: 'service-account-max-token-expiration',
    type: durationValue,
    default: 0,
    usage:
      'The maximum validity duration of a token created by the service account token issuer. 0 means no maximum; otherwise it must be between 1 hour and 2^32 seconds.',
    doc: 'Cap on TokenRequest `expirationSeconds` (1h to 2^32 s; 0 = none)',
    check: maxTokenExpiration,
  }),
  requestHeaderClientCAFile: flag({
    name: 'requestheader-client-ca-file',
    type: stringValue,
    default: '',
    usage:
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
    doc: "CA of the authenticating proxy's client certificate; enables request-header authentication",
  }),
  requestHeaderUsernameHeaders: flag({
    name: 'requestheader-username-headers',
    type: stringsValue,
    default: [],
    usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    doc: 'Headers naming the user (e.g. `X-Remote-User`)',
  }),
  requestHeaderGroupHeaders: flag({
    name: 'requestheader-group-headers',
    type: stringsValue,
    default: [],
    usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    doc: 'Headers naming the groups (e.g. `X-Remote-Group`)',
  }),
  requestHeaderExtraHeadersPrefix: flag({
    name: 'requestheader-extra-headers-prefix',
    type: stringsValue,
    default: [],
    usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    doc: 'Prefixes of headers naming extra values (e.g. `X-Remote-Extra-`)',
  }),
  requestHeaderAllowedNames: flag({
    name: 'requestheader-allowed-names',
    type: stringsValue,
    default: [],
    usage:
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    doc: 'CNs of proxy certificates allowed to assert identities',
    defaultDoc: '(none = any)',
  }),
  enableBootstrapTokenAuth: flag({
    name: 'enable-bootstrap-token-auth',
    type: boolValue,
    default: false,
    usage:
      "Enable to allow secrets of type 'bootstrap.<domain>/token' in the system namespace to be used for TLS bootstrapping authentication.",
    doc: 'Bootstrap tokens from `bootstrap.<domain>/token` Secrets in the system namespace',
  }),
  webhookConfigFile: flag({
    name: 'authentication-token-webhook-config-file',
    type: stringValue,
    default: '',
    usage:
      'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    doc: 'kubeconfig-format file of a TokenReview webhook',
  }),
  webhookVersion: flag({
    name: 'authentication-token-webhook-version',
    type: stringValue,
    default: 'v1beta1',
    usage: 'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
    doc: 'TokenReview version sent to the webhook (`v1` or `v1beta1`)',
    check: tokenWebhookVersion,
  }),
  webhookCacheTtlMs: flag({
    name: 'authentication-token-webhook-cache-ttl',
    type: durationValue,
    default: 120_000,
    usage: 'The duration to cache responses from the webhook token authenticator.',
    doc: "How long the webhook's decisions are remembered",
    check: nonNegative,
  }),
  oidcIssuerURL: flag({
    name: 'oidc-issuer-url',
    type: stringValue,
    default: '',
    usage:
      'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
    doc: 'OpenID Connect issuer (https)',
  }),
  oidcClientID: flag({
    name: 'oidc-client-id',
    type: stringValue,
    default: '',
    usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
    doc: "The audience the issuer's ID tokens must name",
  }),
  oidcCAFile: flag({
    name: 'oidc-ca-file',
    type: stringValue,
    default: '',
    usage:
      "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.",
    doc: "CA of the issuer's TLS certificate",
    defaultDoc: 'system roots',
  }),
  oidcUsernameClaim: flag({
    name: 'oidc-username-claim',
    type: stringValue,
    default: 'sub',
    usage:
      "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable.",
    doc: 'Claim naming the user',
  }),
  oidcUsernamePrefix: flag({
    name: 'oidc-username-prefix',
    type: stringValue,
    default: '',
    usage:
      "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    doc: 'Prefix of the user name (`-` for none)',
    defaultDoc: 'issuer + `#` (none for `email`)',
  }),
  oidcGroupsClaim: flag({
    name: 'oidc-groups-claim',
    type: stringValue,
    default: '',
    usage:
      'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.',
    doc: 'Claim naming the groups',
  }),
  oidcGroupsPrefix: flag({
    name: 'oidc-groups-prefix',
    type: stringValue,
    default: '',
    usage: 'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.',
    doc: 'Prefix of the group names',
  }),
  oidcRequiredClaims: flag({
    name: 'oidc-required-claim',
    type: stringsValue,
    default: [],
    usage:
      'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    doc: '`key=value` every ID token must carry (repeatable)',
  }),
  oidcSigningAlgs: flag({
    name: 'oidc-signing-algs',
    type: stringsValue,
    default: ['RS256'],
    usage:
      "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512.",
    doc: 'Accepted signing algorithms',
  }),
};

export class AuthenticationOptions {
  readonly values = flagValues(AUTHENTICATION_FLAGS);

  addFlags(fs: FlagSet): void {
    fs.table(AUTHENTICATION_FLAGS, this.values);
  }

  validate(): void {
    const v = this.values;
    checkFlags(AUTHENTICATION_FLAGS, v);
    if (v.serviceAccountSigningKeyFile && v.serviceAccountIssuers.length === 0) {
      throw new OptionsError('--service-account-signing-key-file requires --service-account-issuer');
    }
    if (v.oidcIssuerURL) {
      if (!v.oidcIssuerURL.startsWith('https://')) throw new OptionsError('--oidc-issuer-url must use the https scheme');
      if (!v.oidcClientID) throw new OptionsError('--oidc-client-id must be set when --oidc-issuer-url is');
      requiredClaims(v.oidcRequiredClaims);
      const bad = v.oidcSigningAlgs.find((a) => !OIDC_ALGS.includes(a));
      if (bad !== undefined) throw new OptionsError(`--oidc-signing-algs: ${JSON.stringify(bad)} is not a supported signing algorithm`);
    }
  }

  complete(): AuthenticationSettings {
    const v = this.values;
    return {
      clientCAFile: v.clientCAFile || undefined,
      tokenAuthFile: v.tokenAuthFile || undefined,
      anonymousAuth: v.anonymousAuth,
      serviceAccountIssuers: v.serviceAccountIssuers,
      serviceAccountSigningKeyFile: v.serviceAccountSigningKeyFile || undefined,
      serviceAccountKeyFiles: v.serviceAccountKeyFiles,
      serviceAccountLookup: v.serviceAccountLookup,
      apiAudiences: v.apiAudiences.length > 0 ? v.apiAudiences : v.serviceAccountIssuers,
      serviceAccountMaxTokenExpirationSeconds: Math.floor(v.serviceAccountMaxTokenExpirationMs / 1000),
      requestHeader: v.requestHeaderClientCAFile
        ? {
            clientCAFile: v.requestHeaderClientCAFile,
            usernameHeaders: v.requestHeaderUsernameHeaders,
            groupHeaders: v.requestHeaderGroupHeaders,
            extraHeaderPrefixes: v.requestHeaderExtraHeadersPrefix,
            allowedNames: v.requestHeaderAllowedNames,
          }
        : undefined,
      bootstrapTokenAuth: v.enableBootstrapTokenAuth,
      tokenWebhook: v.webhookConfigFile
        ? { configFile: v.webhookConfigFile, version: v.webhookVersion as 'v1' | 'v1beta1', cacheTtlMs: v.webhookCacheTtlMs }
        : undefined,
      oidc: v.oidcIssuerURL
        ? {
            issuerURL: v.oidcIssuerURL,
            clientID: v.oidcClientID,
            caFile: v.oidcCAFile || undefined,
            usernameClaim: v.oidcUsernameClaim,
            usernamePrefix: v.oidcUsernamePrefix || undefined,
            groupsClaim: v.oidcGroupsClaim || undefined,
            groupsPrefix: v.oidcGroupsPrefix || undefined,
            requiredClaims: requiredClaims(v.oidcRequiredClaims),
            signingAlgs: v.oidcSigningAlgs,
          }
        : undefined,
    };
  }
}

function maxTokenExpiration(max: number): void {
  if (max !== 0 && (max < 3_600_000 || max > 2 ** 32 * 1000)) {
    throw new OptionsError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
}

function tokenWebhookVersion(version: string, name: string): void {
  if (version !== 'v1' && version !== 'v1beta1') throw new OptionsError(`--${name} ${JSON.stringify(version)}: must be v1 or v1beta1`);
}

function nonNegative(n: number, name: string): void {
  if (n < 0) throw new OptionsError(`--${name} can not be negative value`);
}

/** --oidc-required-claim key=value pairs. */
function requiredClaims(pairs: string[]): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new OptionsError(`invalid argument ${JSON.stringify(pair)} for "--oidc-required-claim" flag: must be key=value`);
    claims[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return claims;
}
