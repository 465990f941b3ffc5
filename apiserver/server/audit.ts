/** The server's audit from its flags: the policy and backends, or nothing when audit is off (no policy or no backend). */
import type { ApiDomain } from '../api/domain.js';
import { AuditPolicy, loadPolicyFile } from '../audit/policy.js';
import { newLogBackend } from '../audit/log-backend.js';
import { newWebhookBackend, unionBackend } from '../audit/webhook-backend.js';
import type { AuditBackend } from '../audit/types.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { AuditSettings } from './audit-options.js';

export interface ServerAudit {
  policy: AuditPolicy;
  backend: AuditBackend;
  /** audit.<domain>/v1. */
  apiVersion: string;
}

export function newServerAudit(settings: AuditSettings, domain: ApiDomain, logger: Logger): ServerAudit | undefined {
  if (!settings.policyFile) return undefined;
  const apiVersion = `${domain.group('audit.k8s.io')}/v1`;
  const onError = (err: Error) => logger.error('audit backend failed', { err: err.message });
  const backends: AuditBackend[] = [];
  if (settings.logPath) {
    backends.push(
      newLogBackend({
        path: settings.logPath,
        maxSizeMB: settings.logMaxSizeMB,
        maxBackups: settings.logMaxBackups,
        maxAgeDays: settings.logMaxAgeDays,
        onError,
      }),
    );
  }
  if (settings.webhookConfigFile) {
    backends.push(
      newWebhookBackend({
        configFile: settings.webhookConfigFile,
        apiVersion,
        batchMaxSize: settings.webhookBatchMaxSize,
        batchMaxWaitMs: settings.webhookBatchMaxWaitMs,
        initialBackoffMs: settings.webhookInitialBackoffMs,
        onError,
      }),
    );
  }
  if (backends.length === 0) return undefined;
  const policy = new AuditPolicy(loadPolicyFile(settings.policyFile, domain), (g) => domain.group(g));
  return { policy, backend: unionBackend(backends), apiVersion };
}
