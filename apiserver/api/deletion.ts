/** The finalizers and propagation policies of garbage collection, shared by the API server and the collector. */

/** metav1.FinalizerOrphanDependents. */
export const ORPHAN_FINALIZER = 'orphan';
/** metav1.FinalizerDeleteDependents. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** metav1.DeletionPropagation. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';
export const PROPAGATION_POLICIES: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];
