/**
 * The authentication flags kube-apiserver has besides --client-ca-file, --token-auth-file and
 * --anonymous-auth (its BuiltInAuthenticationOptions): service-account tokens.
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
}

export class AuthenticationOptions {
  serviceAccountIssuers: string[] = [];
  serviceAccountSigningKeyFile = '';
  serviceAccountKeyFiles: string[] = [];
  serviceAccountLookup = true;
  apiAudiences: string[] = [];
  serviceAccountMaxTokenExpirationMs = 0;

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
  }

  validate(): void {
    if (this.serviceAccountSigningKeyFile && this.serviceAccountIssuers.length === 0) {
      throw new OptionsError('--service-account-signing-key-file requires --service-account-issuer');
    }
    const max = this.serviceAccountMaxTokenExpirationMs;
    if (max !== 0 && (max < 3_600_000 || max > 2 ** 32 * 1000)) {
      throw new OptionsError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
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
    };
  }
}
