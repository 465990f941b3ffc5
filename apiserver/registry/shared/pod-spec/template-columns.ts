/** Table columns of workloads that carry a pod template: CONTAINERS, IMAGES and SELECTOR (-o wide). */
import type { PrinterColumn } from '../../../api/resource.js';
import { type TypedColumn, typedColumns } from '../../../api/strategy.js';
import { type LabelSelectorObject, labelSelectorFromObject } from '../../../runtime/selectors/label-selector.js';
import type { PodTemplateSpec } from '../../../api/generated/types.js';

/** metav1.FormatLabelSelector: the selector's text, "<none>" when it selects everything or nothing. */
export function formatLabelSelector(selector: LabelSelectorObject | undefined): string {
  try {
    return labelSelectorFromObject(selector).toString() || '<none>';
  } catch {
    return '<error>';
  }
}

/** The wide CONTAINERS and IMAGES columns of a pod template (layoutContainerCells). */
export function templateContainerColumns<T extends { metadata: object }>(
  template: (obj: T) => PodTemplateSpec | undefined,
): PrinterColumn[] {
  const containers = (obj: T) => template(obj)?.spec?.containers ?? [];
  return typedColumns<T>([
    {
      name: 'Containers',
      priority: 1,
      description: 'Names of each container in the template.',
      cell: (o) =>
        containers(o)
          .map((c) => c.name ?? '')
          .join(','),
    },
    {
      name: 'Images',
      priority: 1,
      description: 'Images referenced by each container in the template.',
      cell: (o) =>
        containers(o)
          .map((c) => c.image ?? '')
          .join(','),
    },
  ]);
}

/** The wide SELECTOR column of a kind (a table of PrinterColumns takes it through typedColumns). */
export function selectorColumn<T>(selector: (obj: T) => LabelSelectorObject | undefined, description: string): TypedColumn<T> {
  return { name: 'Selector', priority: 1, description, cell: (o) => formatLabelSelector(selector(o)) };
}
