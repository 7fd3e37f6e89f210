// apimachinery pkg/runtime/schema: GroupVersionKind / GroupVersionResource as kelp passes them around.

export interface GroupVersionKind {
  readonly group: string
  readonly version: string
  readonly kind: string
}

export interface GroupVersionResource {
  readonly group: string
  readonly version: string
  readonly resource: string
}
