import { type Strategy, type StrategyContext, typedStrategy } from '../../../api/strategy.js';
import type { Secret } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid, required, tooLong } from '../../../api/field-errors.js';
import { MAX_DATA_SIZE, validateDataKeys, validateImmutableData } from '../data-keys.js';
import { messageOf } from '../../../api/thrown.js';

/** Secret types with their required keys; the prefix follows the API domain (kubernetes.io for k8s.io). */
function typedRules(obj: Secret, ctx: StrategyContext): FieldError[] {
  const p = ctx.domain.labelPrefix;
  const data = obj.data ?? {};
  const has = (k: string) => Object.hasOwn(data, k);
  const errors: FieldError[] = [];
  const needKeys = (...keys: string[]) => keys.forEach((k) => !has(k) && errors.push(required(`data[${k}]`, '')));
  const needJson = (k: string) => {
    if (!has(k)) return errors.push(required(`data[${k}]`, ''));
    try {
      JSON.parse(Buffer.from(data[k], 'base64').toString('utf8'));
    } catch (e) {
      errors.push(invalid(`data[${k}]`, '<secret contents redacted>', messageOf(e)));
    }
  };
  switch (obj.type) {
    case `${p}/service-account-token`:
      if (!obj.metadata.annotations?.[`${p}/service-account.name`])
        errors.push(required(`metadata.annotations[${p}/service-account.name]`, ''));
      break;
    case `${p}/dockercfg`:
      needJson('.dockercfg');
      break;
    case `${p}/dockerconfigjson`:
      needJson('.dockerconfigjson');
      break;
    case `${p}/basic-auth`:
      if (!has('username') && !has('password')) needKeys('username', 'password');
      break;
    case `${p}/ssh-auth`:
      needKeys('ssh-privatekey');
      break;
    case `${p}/tls`:
      needKeys('tls.crt', 'tls.key');
      break;
  }
  return errors;
}

function validateSecret(obj: Secret, ctx: StrategyContext): FieldError[] {
  const data = obj.data;
  const errors: FieldError[] = validateDataKeys('data', data);
  let total = 0;
  for (const v of Object.values(data ?? {})) total += Buffer.from(v, 'base64').length;
  if (total > MAX_DATA_SIZE) errors.push(tooLong('data', '', MAX_DATA_SIZE));
  errors.push(...typedRules(obj, ctx));
  return errors;
}

/**
 * Secret: `type` defaults to Opaque and never changes, `stringData` is merged into `data` (base64) and
 * never stored or returned, key rules, 1 MiB of data, `immutable`.
 */
export const secretStrategy: Strategy = typedStrategy<Secret>({
  applyDefaults(obj) {
    if (!obj.type) obj.type = 'Opaque';
    const stringData = obj.stringData;
    if (stringData) {
      const data = obj.data ?? {};
      for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
      obj.data = data;
      delete obj.stringData;
    }
  },
  validate: validateSecret,
  validateUpdate(obj, old, ctx) {
    const errors = validateImmutableData(obj, old, ['data']);
    if (obj.type !== old.type) errors.unshift(invalid('type', obj.type, 'field is immutable'));
    return [...validateSecret(obj, ctx), ...errors];
  },
});
