// TEMPORARY stand-in for src/playground/evaluate/index.ts (pg-engine's), deleted when that branch is merged.
export type PaneId = 'material' | 'object' | 'oldObject'
export interface PlaygroundState {
  v: 1
  release: string
  material: string
  object: string
  oldObject: string
  operation: 'CREATE' | 'UPDATE' | 'DELETE'
  user: { username: string; groups: string[] }
}
export interface Marker {
  pane: PaneId
  line: number
  column: number
  endLine?: number
  endColumn?: number
  severity: 'error' | 'warning' | 'info'
  message: string
}
export interface CostRow {
  policy: string
  expression: string
  field: string
  estimated: [number, number] | null
  actual: number | null
  limit: number
}
export interface PlaygroundResult {
  kubectl: string[]
  allowed: boolean
  warnings: string[]
  auditAnnotations: Record<string, string>
  mutated: null | {
    before: unknown
    after: unknown
    patch: Array<{ op: string; path: string; value?: unknown }>
    diff: string
  }
  nativeErrors: string[]
  markers: Marker[]
  costs: CostRow[]
  notes: string[]
}
export type SchemaSource = (path: string) => Promise<Response>
export async function evaluatePlayground(
  state: PlaygroundState,
  _opts?: { loadSchemas?: SchemaSource },
): Promise<PlaygroundResult> {
  const deny = state.material.includes('deny')
  return {
    kubectl: deny ? ['The deployments "x" is invalid: denied'] : ['deployment.apps/x created (server dry run)'],
    allowed: !deny,
    warnings: state.material.includes('warn') ? ['a warning'] : [],
    auditAnnotations: Object.create(null),
    mutated: state.material.includes('mutate')
      ? {
          before: {},
          after: { a: 1 },
          patch: [{ op: 'add', path: '/a', value: 1 }],
          diff: '--- before\n+++ after\n+a: 1\n',
        }
      : null,
    nativeErrors: [],
    markers: state.material.includes('oops')
      ? [{ pane: 'material', line: 2, column: 3, endLine: 2, endColumn: 6, severity: 'error', message: 'oops' }]
      : [],
    costs: [
      {
        policy: 'p',
        expression: 'true',
        field: 'spec.validations[0].expression',
        estimated: [1, 1],
        actual: 1,
        limit: 1000000,
      },
    ],
    notes: [],
  }
}
const b64 = (s: string) =>
  btoa(unescape(encodeURIComponent(s)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
export async function encodeState(s: PlaygroundState): Promise<string> {
  return b64(JSON.stringify(s))
}
export async function decodeState(s: string): Promise<PlaygroundState> {
  return JSON.parse(decodeURIComponent(escape(atob(s.replace(/-/g, '+').replace(/_/g, '/'))))) as PlaygroundState
}
const base: PlaygroundState = {
  v: 1,
  release: '1.37',
  material: 'kind: ValidatingAdmissionPolicy # deny\n',
  object: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n',
  oldObject: '',
  operation: 'CREATE',
  user: { username: 'alice', groups: ['system:authenticated'] },
}
export const examples: ReadonlyArray<{ name: string; state: PlaygroundState }> = [
  { name: 'A deny', state: base },
  { name: 'A mutation', state: { ...base, material: 'kind: MutatingAdmissionPolicy # mutate\n' } },
]
