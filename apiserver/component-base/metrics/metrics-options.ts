/** The metrics flags every binary has (component-base's metrics.Options). */
import { KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../../api/kubernetes-version.js';
import type { FlagSet } from '../flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../flag/flag-table.js';
import { OptionsError } from '../flag/options-error.js';
import { stringValue } from '../flag/values.js';

const PREVIOUS = `${KUBERNETES_MAJOR}.${KUBERNETES_MINOR - 1}`;

export const METRICS_FLAGS = {
  showHiddenMetricsForVersion: flag({
    name: 'show-hidden-metrics-for-version',
    type: stringValue,
    default: '',
    usage:
      "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
    doc: `Only \`${PREVIOUS}\`: shows metrics deprecated in ${PREVIOUS}, hidden in ${KUBERNETES_MAJOR}.${KUBERNETES_MINOR} (every binary)`,
    check: (version) => {
      if (version !== '' && version !== PREVIOUS) {
        throw new OptionsError(
          `--show-hidden-metrics-for-version must be omitted or have the value '${PREVIOUS}'. Only the previous minor version is allowed`,
        );
      }
    },
  }),
};

export class MetricsOptions {
  readonly values = flagValues(METRICS_FLAGS);

  addFlags(fs: FlagSet): void {
    fs.table(METRICS_FLAGS, this.values);
  }

  validate(): void {
    checkFlags(METRICS_FLAGS, this.values);
  }

  get showHiddenMetricsForVersion(): string {
    return this.values.showHiddenMetricsForVersion;
  }
}
