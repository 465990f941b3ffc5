/** kube-apiserver's audit flags (its AuditOptions): the policy, the log backend with rotation, the batching webhook backend. */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../component-base/flag/flag-table.js';
import { OptionsError } from '../component-base/flag/options-error.js';
import { durationValue, intValue, stringValue } from '../component-base/flag/values.js';

/** What the audit flags complete into; audit is off without a policy file or without a backend. */
export interface AuditSettings {
  policyFile?: string;
  logPath?: string;
  logMaxSizeMB: number;
  logMaxBackups: number;
  logMaxAgeDays: number;
  webhookConfigFile?: string;
  webhookBatchMaxSize: number;
  webhookBatchMaxWaitMs: number;
  webhookInitialBackoffMs: number;
}

/** The audit flags, each declared once. */
export const AUDIT_FLAGS = {
  policyFile: flag({
    name: 'audit-policy-file',
    type: stringValue,
    default: '',
    usage: 'Path to the file that defines the audit policy configuration.',
    doc: 'An `audit.k8s.io/v1` (or `audit.<domain>/v1`) `Policy`: rules by `users`, `userGroups`, `verbs`, `resources` (`group`, `resources` with `*`, `res/sub`, `*/sub`, `res/*`, `resourceNames`), `namespaces`, `nonResourceURLs`; `level` `None`, `Metadata`, `Request` or `RequestResponse`; `omitStages`, `omitManagedFields`. Without it nothing is audited. Secrets, TokenRequests and TokenReviews are never logged above `Metadata`',
  }),
  logPath: flag({
    name: 'audit-log-path',
    type: stringValue,
    default: '',
    usage: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    doc: 'Audit events as JSON lines (`-` = standard out)',
  }),
  logMaxAge: flag({
    name: 'audit-log-maxage',
    type: intValue,
    default: 0,
    usage: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    doc: 'Days to keep rotated files (`0` = no limit)',
    check: notNegativeNumber,
  }),
  logMaxBackup: flag({
    name: 'audit-log-maxbackup',
    type: intValue,
    default: 0,
    usage:
      "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    doc: 'Rotated files to keep (`0` = no limit)',
    check: notNegativeNumber,
  }),
  logMaxSize: flag({
    name: 'audit-log-maxsize',
    type: intValue,
    default: 0,
    usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    doc: 'Rotate at this many megabytes into `<name>-<UTC time>.<ext>` (`0` = no limit)',
    check: notNegativeNumber,
  }),
  logFormat: flag({
    name: 'audit-log-format',
    type: stringValue,
    default: 'json',
    usage: 'Format of saved audits. Known formats are json.',
    check: knownLogFormat,
    doc: 'Format of the audit log: `json`, the only one',
  }),
  webhookConfigFile: flag({
    name: 'audit-webhook-config-file',
    type: stringValue,
    default: '',
    usage: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
    doc: 'A kubeconfig naming a service audit `EventList`s are POSTed to',
  }),
  webhookMode: flag({
    name: 'audit-webhook-mode',
    type: stringValue,
    default: 'batch',
    usage: 'Strategy for sending audit events. Batch buffers events and asynchronously processes them in batches. Known modes are batch.',
    check: knownWebhookMode,
    doc: 'How audit events reach the webhook: `batch`, the only one',
  }),
  webhookBatchMaxSize: flag({
    name: 'audit-webhook-batch-max-size',
    type: intValue,
    default: 400,
    usage: 'The maximum size of a batch. Only used in batch mode.',
    doc: 'A batch leaves when it holds this many events',
    check: positiveBatchSize,
  }),
  webhookBatchMaxWaitMs: flag({
    name: 'audit-webhook-batch-max-wait',
    type: durationValue,
    default: 30_000,
    usage: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
    doc: '… or when it is this old',
    check: positiveBatchWait,
  }),
  webhookInitialBackoffMs: flag({
    name: 'audit-webhook-initial-backoff',
    type: durationValue,
    default: 10_000,
    usage: 'The amount of time to wait before retrying the first failed request.',
    doc: 'First retry delay of a failed batch (three tries, then dropped and logged)',
    check: positiveBackoff,
  }),
};

export class AuditOptions {
  readonly values = flagValues(AUDIT_FLAGS);

  addFlags(fs: FlagSet): void {
    fs.table(AUDIT_FLAGS, this.values);
  }

  validate(): void {
    checkFlags(AUDIT_FLAGS, this.values);
  }

  complete(): AuditSettings {
    const v = this.values;
    return {
      policyFile: v.policyFile || undefined,
      logPath: v.logPath || undefined,
      logMaxSizeMB: v.logMaxSize,
      logMaxBackups: v.logMaxBackup,
      logMaxAgeDays: v.logMaxAge,
      webhookConfigFile: v.webhookConfigFile || undefined,
      webhookBatchMaxSize: v.webhookBatchMaxSize,
      webhookBatchMaxWaitMs: v.webhookBatchMaxWaitMs,
      webhookInitialBackoffMs: v.webhookInitialBackoffMs,
    };
  }
}

// The checks of one flag's value, in kube-apiserver's wording; `name` is the flag's.

function notNegativeNumber(n: number, name: string): void {
  if (n < 0) throw new OptionsError(`--${name} ${n} can't be a negative number`);
}

function knownLogFormat(format: string): void {
  if (format !== 'json') throw new OptionsError(`invalid audit log format ${format}, allowed formats are "json"`);
}

function knownWebhookMode(mode: string): void {
  if (mode !== 'batch') throw new OptionsError(`invalid audit webhook mode ${mode}, allowed modes are "batch"`);
}

function positiveBatchSize(n: number): void {
  if (n <= 0) throw new OptionsError(`invalid audit batch webhook max size ${n}, must be a positive number`);
}

function positiveBatchWait(ms: number): void {
  if (ms <= 0) throw new OptionsError('invalid audit batch webhook max wait, must be a positive duration');
}

function positiveBackoff(ms: number): void {
  if (ms <= 0) throw new OptionsError('invalid audit webhook initial backoff, must be a positive duration');
}
