/**
 * The authentication flags kube-apiserver has besides --client-ca-file, --token-auth-file and
 * --anonymous-auth (its BuiltInAuthenticationOptions): service-account tokens, the authenticating
 * proxy's request headers, bootstrap tokens, the token webhook and OIDC.
 */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { OptionsError } from '../component-base/flag/options-error.js';

/** What the authentication flags complete into (fields of ServerOptions). */
export interface AuthenticationSettings {
  /** --service-account-issuer (repeatable): the first signs new tokens; tokens of any are accepted. */
  serviceAccountIssuers: string[];
  /** --service-account-signing-key-file: private key (PEM) that signs TokenRequest tokens; enables serviceaccounts/token. */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-key-file (repeatable): PEM files of public or private RSA/ECDSA keys that verify tokens; default the TLS key. */
  serviceAccountKeyFiles: string[];
  /** --service-account-lookup, default true: legacy tokens are checked against their Secret and account in storage. */
  serviceAccountLookup: boolean;
  /** --api-audiences: audiences of the API; default the issuers. */
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

export class AuthenticationOptions {
  serviceAccountIssuers: string[] = [];
  serviceAccountSigningKeyFile = '';
  serviceAccountKeyFiles: string[] = [];
  serviceAccountLookup = true;
  apiAudiences: string[] = [];
  serviceAccountMaxTokenExpirationMs = 0;
  requestHeaderClientCAFile = '';
  requestHeaderUsernameHeaders: string[] = [];
  requestHeaderGroupHeaders: string[] = [];
  requestHeaderExtraHeadersPrefix: string[] = [];
  requestHeaderAllowedNames: string[] = [];
  enableBootstrapTokenAuth = false;
  webhookConfigFile = '';
  webhookVersion = 'v1beta1';
  webhookCacheTtlMs = 120_000;
  oidcIssuerURL = '';
  oidcClientID = '';
  oidcCAFile = '';
  oidcUsernameClaim = 'sub';
  oidcUsernamePrefix = '';
  oidcGroupsClaim = '';
  oidcGroupsPrefix = '';
  oidcRequiredClaims: string[] = [];
  oidcSigningAlgs: string[] = ['RS256'];

  addFlags(fs: FlagSet): void {
    fs.strings(
      this,
      'serviceAccountIssuers',
      'service-account-issuer',
      'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.',
    );
    fs.string(
      this,
      'serviceAccountSigningKeyFile',
      'service-account-signing-key-file',
      'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key.',
    );
    fs.strings(
      this,
      'serviceAccountKeyFiles',
      'service-account-key-file',
      'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file is used.',
    );
    fs.bool(
      this,
      'serviceAccountLookup',
      'service-account-lookup',
      'If true, validate ServiceAccount tokens exist in storage as part of authentication.',
    );
    fs.strings(
      this,
      'apiAudiences',
      'api-audiences',
      'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If --service-account-issuer is configured and this flag is not, this field defaults to a single element list containing the issuer URL.',
    );
    fs.duration(
      this,
      'serviceAccountMaxTokenExpirationMs',
      'service-account-max-token-expiration',
      'The maximum validity duration of a token created by the service account token issuer. 0 means no maximum; otherwise it must be between 1 hour and 2^32 seconds.',
    );
    fs.string(
      this,
      'requestHeaderClientCAFile',
      'requestheader-client-ca-file',
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
    );
    fs.strings(
      this,
      'requestHeaderUsernameHeaders',
      'requestheader-username-headers',
      'List of request headers to inspect for usernames. X-Remote-User is common.',
    );
    fs.strings(
      this,
      'requestHeaderGroupHeaders',
      'requestheader-group-headers',
      'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    );
    fs.strings(
      this,
      'requestHeaderExtraHeadersPrefix',
      'requestheader-extra-headers-prefix',
      'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    );
    fs.strings(
      this,
      'requestHeaderAllowedNames',
      'requestheader-allowed-names',
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    );
    fs.bool(
      this,
      'enableBootstrapTokenAuth',
      'enable-bootstrap-token-auth',
      "Enable to allow secrets of type 'bootstrap.<domain>/token' in the system namespace to be used for TLS bootstrapping authentication.",
    );
    fs.string(
      this,
      'webhookConfigFile',
      'authentication-token-webhook-config-file',
      'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    );
    fs.string(
      this,
      'webhookVersion',
      'authentication-token-webhook-version',
      'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
    );
    fs.duration(
      this,
      'webhookCacheTtlMs',
      'authentication-token-webhook-cache-ttl',
      'The duration to cache responses from the webhook token authenticator.',
    );
    fs.string(
      this,
      'oidcIssuerURL',
      'oidc-issuer-url',
      'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
    );
    fs.string(
      this,
      'oidcClientID',
      'oidc-client-id',
      'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
    );
    fs.string(
      this,
      'oidcCAFile',
      'oidc-ca-file',
      "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.",
    );
    fs.string(
      this,
      'oidcUsernameClaim',
      'oidc-username-claim',
      "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable.",
    );
    fs.string(
      this,
      'oidcUsernamePrefix',
      'oidc-username-prefix',
      "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    );
    fs.string(
      this,
      'oidcGroupsClaim',
      'oidc-groups-claim',
      'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.',
    );
    fs.string(
      this,
      'oidcGroupsPrefix',
      'oidc-groups-prefix',
      'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.',
    );
    fs.strings(
      this,
      'oidcRequiredClaims',
      'oidc-required-claim',
      'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    );
    fs.strings(
      this,
      'oidcSigningAlgs',
      'oidc-signing-algs',
      "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512.",
    );
  }

  validate(): void {
    if (this.serviceAccountSigningKeyFile && this.serviceAccountIssuers.length === 0) {
      throw new OptionsError('--service-account-signing-key-file requires --service-account-issuer');
    }
    const max = this.serviceAccountMaxTokenExpirationMs;
    if (max !== 0 && (max < 3_600_000 || max > 2 ** 32 * 1000)) {
      throw new OptionsError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    }
    if (this.webhookVersion !== 'v1' && this.webhookVersion !== 'v1beta1') {
      throw new OptionsError(`--authentication-token-webhook-version ${JSON.stringify(this.webhookVersion)}: must be v1 or v1beta1`);
    }
    if (this.webhookCacheTtlMs < 0) throw new OptionsError('--authentication-token-webhook-cache-ttl can not be negative value');
    if (this.oidcIssuerURL) {
      if (!this.oidcIssuerURL.startsWith('https://')) throw new OptionsError('--oidc-issuer-url must use the https scheme');
      if (!this.oidcClientID) throw new OptionsError('--oidc-client-id must be set when --oidc-issuer-url is');
      requiredClaims(this.oidcRequiredClaims);
      const bad = this.oidcSigningAlgs.find((a) => !OIDC_ALGS.includes(a));
      if (bad !== undefined) throw new OptionsError(`--oidc-signing-algs: ${JSON.stringify(bad)} is not a supported signing algorithm`);
    }
  }

  complete(): AuthenticationSettings {
    return {
      serviceAccountIssuers: this.serviceAccountIssuers,
      serviceAccountSigningKeyFile: this.serviceAccountSigningKeyFile || undefined,
      serviceAccountKeyFiles: this.serviceAccountKeyFiles,
      serviceAccountLookup: this.serviceAccountLookup,
      apiAudiences: this.apiAudiences.length > 0 ? this.apiAudiences : this.serviceAccountIssuers,
      serviceAccountMaxTokenExpirationSeconds: Math.floor(this.serviceAccountMaxTokenExpirationMs / 1000),
      requestHeader: this.requestHeaderClientCAFile
        ? {
            clientCAFile: this.requestHeaderClientCAFile,
            usernameHeaders: this.requestHeaderUsernameHeaders,
            groupHeaders: this.requestHeaderGroupHeaders,
            extraHeaderPrefixes: this.requestHeaderExtraHeadersPrefix,
            allowedNames: this.requestHeaderAllowedNames,
          }
        : undefined,
      bootstrapTokenAuth: this.enableBootstrapTokenAuth,
      tokenWebhook: this.webhookConfigFile
        ? { configFile: this.webhookConfigFile, version: this.webhookVersion as 'v1' | 'v1beta1', cacheTtlMs: this.webhookCacheTtlMs }
        : undefined,
      oidc: this.oidcIssuerURL
        ? {
            issuerURL: this.oidcIssuerURL,
            clientID: this.oidcClientID,
            caFile: this.oidcCAFile || undefined,
            usernameClaim: this.oidcUsernameClaim,
            usernamePrefix: this.oidcUsernamePrefix || undefined,
            groupsClaim: this.oidcGroupsClaim || undefined,
            groupsPrefix: this.oidcGroupsPrefix || undefined,
            requiredClaims: requiredClaims(this.oidcRequiredClaims),
            signingAlgs: this.oidcSigningAlgs,
          }
        : undefined,
    };
  }
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
