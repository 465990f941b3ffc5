/** Path rules of pod specs (projected file paths, sub-paths, host paths), as Kubernetes checks them. */
import type { FieldError, FieldRef } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';

/** validatePathNoBacksteps: no `..` element (one error is enough). */
export function validatePathNoBacksteps(target: string, path: FieldRef): FieldError[] {
  return target.split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..` elements. */
export function validateLocalDescendingPath(target: string, path: FieldRef): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: a local descending path that does not start with `..` either. */
export function validateLocalNonReservedPath(target: string, path: FieldRef): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}
