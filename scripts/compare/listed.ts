/**
 * Differences from Kubernetes that are known and explained (README, "Differences from Kubernetes"):
 * a step's difference is listed when a rule matches its script, its step (RegExps on the names), its
 * path and, when the rule has one, a check of the two values. Everything else the checker finds
 * counts as a difference to fix.
 */
import type { Difference } from './diff.js';

export interface ListedDifference {
  script: RegExp;
  step: RegExp;
  /** Difference paths this rule covers (RegExp on `Difference.path`). */
  path: RegExp;
  /** When set, the rule covers only differences whose values pass it. */
  when?: (d: Difference) => boolean;
  /** Why orch differs, as the README says it. */
  reason: string;
}

/** A Go zero value as encoding/json writes it for a field without omitempty: null, "", 0, false, {} or a struct of those. */
export function isGoZero(v: unknown): boolean {
  if (v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return false;
  if (typeof v === 'object') return Object.values(v as object).every(isGoZero);
  return false;
}

const ANY = /./;

export const LISTED: ListedDifference[] = [
  {
    script: ANY,
    step: ANY,
    path: ANY,
    when: (d) => (d.orch === undefined && isGoZero(d.reference)) || (Array.isArray(d.orch) && d.orch.length === 0 && d.reference == null),
    reason:
      'Go zero values: Kubernetes writes the zero value of fields without omitempty (`creationTimestamp: null`, `resources: {}`, `source: {}`, empty Node status structs) and nil lists as null; orch leaves unset fields out and keeps an empty list as sent',
  },
  {
    script: ANY,
    step: ANY,
    path: /(^|\.)managedFields(\.|$)/,
    reason:
      "managedFields bookkeeping: orch's field sets mark `.` on every map and list they own and track fields Kubernetes leaves to its zero-value encoding; objects created with no fields but a name start tracking on their first update in orch (Kubernetes: on the first apply, as `before-first-apply`)",
  },
  {
    script: ANY,
    step: ANY,
    path: /^body\.items\.\d+\.(apiVersion|kind)$/,
    when: (d) => d.reference === undefined,
    reason: "list items carry their apiVersion and kind in orch's lists; Kubernetes leaves them out of each item (clients read both)",
  },
  {
    script: /^core-kinds$/,
    step: /^persistentvolume(claim)?-watch$/,
    path: /^events$/,
    reason:
      'a PersistentVolume(Claim) PUT back as read: a no-op in orch (no new resourceVersion, no event); Kubernetes writes it again (one more MODIFIED event) — why is not found yet',
  },
  {
    script: ANY,
    step: /^(list-exact-0|list-match-no-rv|list-match-bad|page-2-match|unknown-field-bad-mode|dry-run-bad|apply-no-manager)$/,
    path: /^(status|body\.(code|reason|details))$/,
    reason:
      "invalid request options (ListOptions of a list, CreateOptions, PatchOptions: resourceVersionMatch, fieldValidation, dryRun, fieldManager) are a 400 BadRequest with Kubernetes' message in orch, as an earlier issue asked; Kubernetes answers 422 Invalid on the options kind (a watch's are 422 in both: the WatchList validation)",
  },
  {
    script: /^resource-versions$/,
    step: /^(get|list|watch)-bad$/,
    path: /^(status|body\.(code|reason))$/,
    reason:
      'an unparsable resourceVersion is a 400 BadRequest in orch; Kubernetes answers 500 InternalError (its storage error is not converted)',
  },
  {
    script: /^resource-versions$/,
    step: /^limit-0$/,
    path: /^body\.(items|metadata\.continue|metadata\.remainingItemCount)$/,
    reason:
      "a list with resourceVersion=0 and a limit: Kubernetes' watch cache ignores the limit and answers everything, orch's honours it (the API conventions allow both: the limit may be ignored for resourceVersion 0)",
  },
  {
    script: /^errors$/,
    step: /^no-group$/,
    path: /^body$/,
    reason: "a path under no served group is a NotFound Status in orch; Kubernetes' router answers the text `404 page not found`",
  },
  {
    script: /^errors$/,
    step: /^patch-(bad-json-patch|test-fails)$/,
    path: /^body\.details\./,
    reason:
      'a JSON patch that does not apply: orch names the object and the failing operation (422 Invalid with a cause); Kubernetes answers a generic 422 ("the server rejected our request due to an error in our request") without details',
  },
  {
    script: /^group-kinds$/,
    step: /^flowschema-/,
    path: /^(events(\.\d+\.status\.conditions)?|body\.(items\.\d+\.)?status\.conditions)$/,
    reason:
      "FlowSchema status: Kubernetes' priority-and-fairness configuration controller writes the Dangling condition on every FlowSchema (and so more watch events, as many as its timing makes); orch stores flow-control objects without running that controller",
  },
  {
    script: /^group-kinds$/,
    step: /^event-create-invalid$/,
    path: /^body\.details\.group$/,
    reason:
      'an invalid events.k8s.io Event: Kubernetes validates it as the core Event its registry shares, so the error names no group; orch names events.k8s.io',
  },
  {
    script: /^group-kinds$/,
    step: /^job-watch$/,
    path: /^events$/,
    reason:
      "a Job's labels defaulted from its template: Kubernetes stores the Job without them and adds them when it reads it back, so the first update that sends them back is a change (one more MODIFIED event); orch stores them at create",
  },
  {
    script: /^group-kinds$/,
    step: /^deployment-(apply|watch)$/,
    path: /^(body|events\.\d+)\.metadata\.generation$/,
    reason:
      "a Deployment's generation moves with its spec only; Kubernetes also bumps it when the annotations change through the main resource (its deployment controller writes the revision annotation through /status; orch's still writes it through the main resource)",
  },
  {
    script: /^kind-rules$/,
    step: /^service-invalid-values$/,
    path: /^body\.details\.causes$/,
    reason:
      'a Service with an invalid clusterIP and other invalid fields: Kubernetes allocates addresses before it validates and reports the address alone; orch validates first and reports every error',
  },
  {
    script: /^aggregation-flowcontrol-policy$/,
    step: /^apiservice-missing-service-request$/,
    path: /^body$/,
    reason:
      'a request to an unavailable APIService: orch answers a 503 ServiceUnavailable Status, as every other API error; kube-aggregator answers the text `service unavailable`',
  },
  {
    script: /^aggregation-flowcontrol-policy$/,
    step: /^flow-schema-invalid$/,
    path: /^body\.details\.causes\.\d+\.message$/,
    reason:
      'an unsupported struct value in a validation message: Kubernetes prints the Go value (`flowcontrol.FlowDistinguisherMethod{Type:"ByColour"}`); orch prints it as JSON',
  },
  {
    script: /^aggregation-flowcontrol-policy$/,
    step: /^policy-bad-cel$/,
    path: /^body\.details\.causes\.\d+\.message$/,
    reason:
      "a CEL expression that does not parse: the syntax error's position and wording are @bufbuild/cel's parser's, not cel-go's ANTLR grammar's (`compilation failed: ERROR: <input>:L:C:` is the same)",
  },
  {
    script: ANY,
    step: ANY,
    path: /^body$/,
    when: (d) =>
      typeof d.orch === 'string' &&
      d.orch.startsWith('k8s\u0000') &&
      typeof d.reference === 'string' &&
      d.reference.startsWith('k8s\u0000'),
    reason:
      "protobuf bytes: Kubernetes' generated marshallers write every field that is not a pointer (empty strings, zeros, an empty ListMeta) where orch leaves unset fields out; both decode to the same object. A 406's list of media types also names orch's own application/vnd.orch.protobuf",
  },
  {
    script: /^views$/,
    step: /^widget-update-as-partial-list-protobuf$/,
    path: /^(status|body\.(code|reason))$/,
    reason:
      'a write asking for the other shape of view (PartialObjectMetadataList of one object) is refused with a 406 before anything is written; Kubernetes writes first and then fails the answer (a 406, or a 500 for a custom resource)',
  },
];

/** The rule that explains a difference, if any. */
export function listedReason(script: string, step: string, d: Difference, rules: ListedDifference[] = LISTED): string | undefined {
  return rules.find((r) => r.script.test(script) && r.step.test(step) && r.path.test(d.path) && (!r.when || r.when(d)))?.reason;
}
