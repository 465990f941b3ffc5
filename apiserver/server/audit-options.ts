/** kube-apiserver's audit flags (its AuditOptions): the policy, the log backend with rotation, the batching webhook backend. */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { OptionsError } from '../component-base/flag/options-error.js';

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

export class AuditOptions {
  policyFile = '';
  logPath = '';
  logMaxSize = 0;
  logMaxBackup = 0;
  logMaxAge = 0;
  logFormat = 'json';
  webhookConfigFile = '';
  webhookMode = 'batch';
  webhookBatchMaxSize = 400;
  webhookBatchMaxWaitMs = 30_000;
  webhookInitialBackoffMs = 10_000;

  addFlags(fs: FlagSet): void {
    fs.string(this, 'policyFile', 'audit-policy-file', 'Path to the file that defines the audit policy configuration.');
    fs.string(
      this,
      'logPath',
      'audit-log-path',
      "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    );
    fs.int(
      this,
      'logMaxAge',
      'audit-log-maxage',
      'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    );
    fs.int(
      this,
      'logMaxBackup',
      'audit-log-maxbackup',
      "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    );
    fs.int(this, 'logMaxSize', 'audit-log-maxsize', 'The maximum size in megabytes of the audit log file before it gets rotated.');
    fs.string(this, 'logFormat', 'audit-log-format', 'Format of saved audits. Known formats are json.');
    fs.string(
      this,
      'webhookConfigFile',
      'audit-webhook-config-file',
      'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
    );
    fs.string(
      this,
      'webhookMode',
      'audit-webhook-mode',
      'Strategy for sending audit events. Batch buffers events and asynchronously processes them in batches. Known modes are batch.',
    );
    fs.int(this, 'webhookBatchMaxSize', 'audit-webhook-batch-max-size', 'The maximum size of a batch. Only used in batch mode.');
    fs.duration(
      this,
      'webhookBatchMaxWaitMs',
      'audit-webhook-batch-max-wait',
      "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
    );
    fs.duration(
      this,
      'webhookInitialBackoffMs',
      'audit-webhook-initial-backoff',
      'The amount of time to wait before retrying the first failed request.',
    );
  }

  validate(): void {
    if (this.logMaxAge < 0) throw new OptionsError(`--audit-log-maxage ${this.logMaxAge} can't be a negative number`);
    if (this.logMaxBackup < 0) throw new OptionsError(`--audit-log-maxbackup ${this.logMaxBackup} can't be a negative number`);
    if (this.logMaxSize < 0) throw new OptionsError(`--audit-log-maxsize ${this.logMaxSize} can't be a negative number`);
    if (this.logFormat !== 'json') throw new OptionsError(`invalid audit log format ${this.logFormat}, allowed formats are "json"`);
    if (this.webhookMode !== 'batch') throw new OptionsError(`invalid audit webhook mode ${this.webhookMode}, allowed modes are "batch"`);
    if (this.webhookBatchMaxSize <= 0)
      throw new OptionsError(`invalid audit batch webhook max size ${this.webhookBatchMaxSize}, must be a positive number`);
    if (this.webhookBatchMaxWaitMs <= 0) throw new OptionsError('invalid audit batch webhook max wait, must be a positive duration');
    if (this.webhookInitialBackoffMs <= 0) throw new OptionsError('invalid audit webhook initial backoff, must be a positive duration');
  }

  complete(): AuditSettings {
    return {
      policyFile: this.policyFile || undefined,
      logPath: this.logPath || undefined,
      logMaxSizeMB: this.logMaxSize,
      logMaxBackups: this.logMaxBackup,
      logMaxAgeDays: this.logMaxAge,
      webhookConfigFile: this.webhookConfigFile || undefined,
      webhookBatchMaxSize: this.webhookBatchMaxSize,
      webhookBatchMaxWaitMs: this.webhookBatchMaxWaitMs,
      webhookInitialBackoffMs: this.webhookInitialBackoffMs,
    };
  }
}
