/**
 * flowcontrol v1beta3 PriorityLevelConfiguration: Kubernetes 1.28 defaults (nominalConcurrencyShares 30,
 * lendablePercent 0, queues 64, handSize 8, queueLengthLimit 50) and ValidatePriorityLevelConfiguration:
 * type Exempt exactly for `exempt`, a Limited level's shares, limit response and shuffle-sharding queues.
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../api/field-errors.js';
import { typedStrategy } from '../../api/strategy.js';
import type { LimitResponse, PriorityLevelConfiguration, PriorityLevelConfigurationSpec } from '../../api/generated/types.js';
import { conditionsStatusSubresource, validateConditions } from './conditions.js';

const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];

function validateLimitResponse(lr: Partial<LimitResponse>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  switch (lr.type) {
    case 'Reject':
      if (lr.queuing) errs.push(forbidden(path.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue': {
      const q = lr.queuing;
      if (!q) {
        errs.push(required(path.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited'));
        break;
      }
      const qp = path.child('queuing');
      const [limit, queues, hand] = [q.queueLengthLimit ?? 0, q.queues ?? 0, q.handSize ?? 0];
      if (limit <= 0) errs.push(invalid(qp.child('queueLengthLimit'), limit, 'must be positive'));
      if (queues <= 0) errs.push(invalid(qp.child('queues'), queues, 'must be positive'));
      else if (queues > MAX_QUEUES) errs.push(invalid(qp.child('queues'), queues, `must not be greater than ${MAX_QUEUES}`));
      if (hand <= 0) errs.push(invalid(qp.child('handSize'), hand, 'must be positive'));
      else if (hand > queues) errs.push(invalid(qp.child('handSize'), hand, `should not be greater than queues (${queues})`));
      else if (Math.ceil(Math.log2(queues) * hand) > MAX_HASH_BITS) {
        errs.push(
          invalid(
            qp.child('handSize'),
            hand,
            `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`,
          ),
        );
      }
      break;
    }
    default:
      errs.push(notSupported(path.child('type'), lr.type ?? '', LIMIT_RESPONSE_TYPES));
  }
  return errs;
}

export function validatePriorityLevelSpec(name: string, spec: Partial<PriorityLevelConfigurationSpec>): FieldError[] {
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  if ((name === 'exempt') !== (spec.type === 'Exempt'))
    errs.push(invalid(path.child('type'), spec.type ?? '', "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (spec.type) {
    case 'Exempt': {
      if (spec.limited) errs.push(forbidden(path.child('limited'), 'must be nil if the type is not Limited'));
      const e = spec.exempt;
      if (e?.nominalConcurrencyShares !== undefined && e.nominalConcurrencyShares < 0) {
        errs.push(invalid(path.child('exempt', 'nominalConcurrencyShares'), e.nominalConcurrencyShares, 'must be a non-negative integer'));
      }
      if (e?.lendablePercent !== undefined && !(e.lendablePercent >= 0 && e.lendablePercent <= 100)) {
        errs.push(invalid(path.child('exempt', 'lendablePercent'), e.lendablePercent, 'must be between 0 and 100, inclusive'));
      }
      break;
    }
    case 'Limited': {
      if (spec.exempt) errs.push(forbidden(path.child('exempt'), 'must be nil if the type is Limited'));
      const l = spec.limited;
      if (!l) {
        errs.push(required(path.child('limited'), 'must not be empty when type is Limited'));
        break;
      }
      const lp = path.child('limited');
      if ((l.nominalConcurrencyShares ?? 0) <= 0)
        errs.push(invalid(lp.child('nominalConcurrencyShares'), l.nominalConcurrencyShares ?? 0, 'must be positive'));
      errs.push(...validateLimitResponse(l.limitResponse ?? {}, lp.child('limitResponse')));
      if (l.lendablePercent !== undefined && !(l.lendablePercent >= 0 && l.lendablePercent <= 100)) {
        errs.push(invalid(lp.child('lendablePercent'), l.lendablePercent, 'must be between 0 and 100, inclusive'));
      }
      if (l.borrowingLimitPercent !== undefined && l.borrowingLimitPercent < 0) {
        errs.push(invalid(lp.child('borrowingLimitPercent'), l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
      }
      break;
    }
    default:
      errs.push(notSupported(path.child('type'), spec.type ?? '', ['Exempt', 'Limited']));
  }
  return errs;
}

function validatePriorityLevel(pl: PriorityLevelConfiguration): FieldError[] {
  return [...validatePriorityLevelSpec(pl.metadata.name ?? '', pl.spec ?? {}), ...validateConditions(pl.status?.conditions)];
}

export const priorityLevelStrategy = typedStrategy<PriorityLevelConfiguration>({
  applyDefaults(pl) {
    const spec = pl.spec;
    if (spec?.exempt) {
      spec.exempt.nominalConcurrencyShares ??= 0;
      spec.exempt.lendablePercent ??= 0;
    }
    const limited = spec?.limited;
    if (limited) {
      if (!limited.nominalConcurrencyShares) limited.nominalConcurrencyShares = 30;
      limited.lendablePercent ??= 0;
      const q = limited.limitResponse?.queuing;
      if (q) {
        if (!q.handSize) q.handSize = 8;
        if (!q.queues) q.queues = 64;
        if (!q.queueLengthLimit) q.queueLengthLimit = 50;
      }
    }
  },
  prepareForCreate(pl) {
    pl.status = {};
  },
  validate: validatePriorityLevel,
  validateUpdate: validatePriorityLevel,
});

export const priorityLevelStatusStrategy = conditionsStatusSubresource;
