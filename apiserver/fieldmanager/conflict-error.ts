/**
 * Apply conflicts as Kubernetes answers them: 409 Conflict, one FieldManagerConflict cause per
 * conflicting field naming its current manager, and a message listing them by manager.
 */
import * as status from '../api/status.js';
import { OPERATION_UPDATE, parseManagerIdentifier } from './managed-fields.js';
import { pathString } from './path-element.js';
import type { Conflict } from './updater.js';

/** A manager as conflicts name it: `"kubectl"`, `"ctl" using apps/v1`, `"x" with subresource "status"`. */
export function printManager(id: string): string {
  const m = parseManagerIdentifier(id);
  let s = JSON.stringify(m.manager ?? '');
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === OPERATION_UPDATE) s += ` using ${m.apiVersion ?? ''}`;
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`, ...byManager.get(manager)!.map((p) => `- ${p}`));
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 of an apply that would change fields other managers own. */
export function applyConflictError(conflicts: readonly Conflict[]): status.ApiError {
  return new status.ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: conflictMessage(conflicts),
    reason: 'Conflict',
    details: {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.manager)}`,
        field: pathString(c.path),
      })),
    },
    code: status.REASON_CODES.Conflict,
  });
}
