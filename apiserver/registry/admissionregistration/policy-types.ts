/** admissionregistration ValidatingAdmissionPolicy and its binding as the strategies and the plugin read them (JSON form; v1 and v1beta1 alike). */
import type { ObjectMeta } from '../../api/object-meta.js';
import type { LabelSelectorObject } from '../../runtime/selectors/label-selector.js';
import type { MatchCondition, RuleWithOperations } from './types.js';

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface Validation {
  expression?: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key?: string;
  valueExpression?: string;
}

export interface Variable {
  name?: string;
  expression?: string;
}

export interface PolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: string;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorObject;
  parameterNotFoundAction?: string;
}

export interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

/** A ValidatingAdmissionPolicy as its strategy reads it (the status is the server's, kept as it is). */
export interface Policy {
  metadata: ObjectMeta;
  spec?: PolicySpec;
  status?: unknown;
}

/** A ValidatingAdmissionPolicyBinding as its strategy reads it. */
export interface Binding {
  metadata: ObjectMeta;
  spec?: BindingSpec;
}
