/** File modes of projected files (defaultMode, items[*].mode): 0..0777, Kubernetes' message. */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';

/** Kubernetes' fileModeErrorMsg. */
const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

/** A file mode (defaultMode, mode) in 0..0777; absent is valid. */
export function validateFileMode(mode: number | undefined, path: FieldPath): FieldError[] {
  return mode !== undefined && (mode > 0o777 || mode < 0) ? [invalid(path, mode, FILE_MODE_ERROR_MSG)] : [];
}
