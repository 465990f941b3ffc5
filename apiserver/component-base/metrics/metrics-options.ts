/** The metrics flags every binary has (component-base's metrics.Options). */
import { KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../../api/kubernetes-version.js';
import type { FlagSet } from '../flag/flag-set.js';
import { OptionsError } from '../flag/options-error.js';

export class MetricsOptions {
  showHiddenMetricsForVersion = '';

  addFlags(fs: FlagSet): void {
    fs.string(
      this,
      'showHiddenMetricsForVersion',
      'show-hidden-metrics-for-version',
      "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
    );
  }

  validate(): void {
    const previous = `${KUBERNETES_MAJOR}.${KUBERNETES_MINOR - 1}`;
    if (this.showHiddenMetricsForVersion !== '' && this.showHiddenMetricsForVersion !== previous) {
      throw new OptionsError(
        `--show-hidden-metrics-for-version must be omitted or have the value '${previous}'. Only the previous minor version is allowed`,
      );
    }
  }
}
